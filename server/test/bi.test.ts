import { gunzipSync } from 'node:zlib';
import {
  AGE_BUCKETS,
  addMonths,
  dealAgeBucket,
  firstDailyDay,
  isoAnalyticsAnswer,
  isoInfoRow,
  monthStart,
  STATS_FIRST_MONTH,
  wholeMonths,
} from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildIsoInfo, refreshDerived } from '../src/db/derived';
import { Client, type TestApp, testApp } from './helpers';

/*
 * Oracles: the raw merchant, group and income rows read with plain SQL, every figure then computed here in
 * TypeScript (money in whole cents, rounded half away from zero as docs/bi.md says), never through the code
 * under test.
 */

let t: TestApp;
const clients = new Map<string, Client>();
async function as(email: string) {
  let c = clients.get(email);
  if (!c) {
    c = new Client(t.app);
    await c.signin(email);
    clients.set(email, c);
  }
  return c;
}

interface Merchant {
  id: number;
  partner_id: number;
  group_id: string;
  approved_on: string;
  closed_on: string | null;
  sponsor_bank: string;
  profile: string;
  mcc: string;
  state: string | null;
}
interface Group {
  group_id: string;
  group_name: string;
  partner_id: number;
}
interface Iso {
  id: number;
  name: string;
  groups: Group[];
  merchants: Merchant[];
}

let today: string;
let merchants: Merchant[];
let groups: Group[];
/** Summit (the partner user's ISO) and the ISO with the most groups besides it. */
let isos: [Iso, Iso];

const rowsOf = async <R>(q: ReturnType<typeof sql>) => (await q.execute(t.db)).rows as R[];
const cents = (s: string) => {
  const [whole = '0', frac = ''] = s.replace('-', '').split('.');
  const v = BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
  return s.startsWith('-') ? -v : v;
};
/** a ÷ n in cents, rounded half away from zero, as decimal text. */
function perDeal(total: bigint, n: number): string {
  const d = BigInt(n);
  const neg = total < 0n;
  const abs = neg ? -total : total;
  const q = (abs * 2n + d) / (2n * d);
  const s = `${q / 100n}.${String(q % 100n).padStart(2, '0')}`;
  return neg && q !== 0n ? `-${s}` : s;
}
const addDays = (day: string, n: number) =>
  new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
const isOpen = (m: Merchant) => m.closed_on === null || m.closed_on > today;

/** Approvals per group name and month ('name|YYYY-MM-01') of the merchants as they are now. */
function approvalsOf(): Map<string, number> {
  const nameOf = new Map(groups.map((g) => [g.group_id, g.group_name]));
  const approvals = new Map<string, number>();
  for (const m of merchants) {
    const k = `${nameOf.get(m.group_id)}|${m.approved_on.slice(0, 7)}-01`;
    approvals.set(k, (approvals.get(k) ?? 0) + 1);
  }
  return approvals;
}

/** Open merchants per state, of the merchants as they are now. */
function openPerState(): Map<string, number> {
  const states = new Map<string, number>();
  for (const m of merchants.filter((m) => isOpen(m) && m.state))
    states.set(m.state as string, (states.get(m.state as string) ?? 0) + 1);
  return states;
}
const round1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);

/** The stats rows of an ISO's groups over deals approved in start–end, computed from the raw rows (docs/bi.md). */
async function expectedStats(
  iso: Iso,
  start: string,
  end: string,
): Promise<Map<string, Record<string, unknown>>> {
  const income = await rowsOf<{ merchant_id: number; net: string; payouts: string }>(
    sql`select merchant_id, net::text, payouts::text from merchant_income
        where partner_id = ${iso.id} and month <= ${end}::date`,
  );
  const nameOf = new Map(iso.groups.map((g) => [g.group_id, g.group_name]));
  const endNext = addMonths(end, 1);
  const inWindow = (m: Merchant) => m.approved_on >= start && m.approved_on < endNext;
  const earned = (ids: Set<number>) => {
    let net = 0n;
    let payouts = 0n;
    for (const i of income)
      if (ids.has(i.merchant_id)) {
        net += cents(i.net);
        payouts += cents(i.payouts);
      }
    return { net, payouts };
  };
  const isoDeals = earned(new Set(iso.merchants.filter(inWindow).map((m) => m.id)));
  const houseOfIso = perDeal(isoDeals.net - isoDeals.payouts, 1);
  const rows = new Map<string, Record<string, unknown>>();
  for (const name of new Set(nameOf.values())) {
    const deals = iso.merchants.filter((m) => nameOf.get(m.group_id) === name && inWindow(m));
    const n = deals.length;
    const dates = deals.map((d) => d.approved_on).sort();
    const open = deals.filter(isOpen).length;
    const { net, payouts } = earned(new Set(deals.map((d) => d.id)));
    rows.set(name, {
      groupname: name,
      iso: iso.name,
      first: dates[0] ?? null,
      last: dates.at(-1) ?? null,
      avgdaysbw: n > 1 ? round1(days(dates[0] as string, dates.at(-1) as string) / (n - 1)) : null,
      openCount: open,
      approvedCount: n,
      retentionPercent: n > 0 ? round1((open * 100) / n) : null,
      TotalIncomePerDeal: n > 0 ? perDeal(net, n) : null,
      ISOProfitPerDeal: n > 0 ? perDeal(payouts, n) : null,
      HouseProfitPerDeal: n > 0 ? perDeal(net - payouts, n) : null,
      HouseProfitPerISO: houseOfIso,
    });
  }
  return rows;
}

/** Each of the ISO's groups' stats row in `stats` is the one computed from the raw rows over start–end. */
async function expectStatsOf(stats: Record<string, unknown>[], iso: Iso, start: string, end: string) {
  for (const [name, row] of await expectedStats(iso, start, end))
    expect(
      stats.find((s) => s.groupname === name),
      name,
    ).toEqual(row);
}

/** The database's day now. */
const currentDate = async () =>
  (await rowsOf<{ d: string }>(sql`select current_date::text as d`))[0]?.d as string;

beforeAll(async () => {
  t = await testApp();
  today = await currentDate();
  merchants = await rowsOf<Merchant>(
    sql`select id, partner_id, group_id, approved_on::text, closed_on::text, sponsor_bank, profile, mcc, state from merchants`,
  );
  groups = await rowsOf<Group>(sql`select group_id, group_name, partner_id from groups`);
  const partners = await rowsOf<{ id: number; account_name: string }>(
    sql`select id, account_name from partners`,
  );
  const isoOf = (p: { id: number; account_name: string }): Iso => ({
    id: p.id,
    name: p.account_name,
    groups: groups.filter((g) => g.partner_id === p.id && merchants.some((m) => m.group_id === g.group_id)),
    merchants: merchants.filter((m) => m.partner_id === p.id),
  });
  const summit = partners.find((p) => p.account_name === 'Summit Payment Group');
  if (!summit) throw new Error('no Summit Payment Group in the test data');
  const other = partners
    .filter((p) => p.id !== summit.id)
    .map(isoOf)
    .sort((a, b) => b.groups.length - a.groups.length || b.merchants.length - a.merchants.length)[0] as Iso;
  isos = [isoOf(summit), other];
  expect(isos[1].groups.length).toBeGreaterThan(1);
});

// Each test's day, read as it starts: a day read once for the file would be the day before in the tests after a
// midnight.
beforeEach(async () => {
  today = await currentDate();
});
afterAll(async () => {
  await t?.close();
});

describe('ISO analytics', () => {
  it('offers the partner groups with merchants, each with its ISO', async () => {
    const res = await (await as('sales@paydesk.local')).get('/api/isoanalyticsoptions');
    expect(res.statusCode).toBe(200);
    const { output } = res.json() as { output: { partner: string; iso: string }[] };
    for (const iso of isos)
      for (const g of iso.groups) expect(output).toContainEqual({ partner: g.group_name, iso: iso.name });
    const withMerchants = new Set(merchants.map((m) => m.group_id));
    expect(output.length).toBe(
      new Set(groups.filter((g) => withMerchants.has(g.group_id)).map((g) => g.group_name)).size,
    );
  });

  for (const which of [0, 1] as const)
    it(`computes approvals, map counts and stats of ISO ${which + 1}'s groups from the rows`, async () => {
      const iso = isos[which];
      const names = iso.groups.map((g) => g.group_name);
      const start = '2020-01-01';
      // To the current month (each deal's whole income history) and to a past month (income up to it).
      const end = addMonths(monthStart(new Date()), which === 0 ? 0 : -18);
      const res = await (await as('sales@paydesk.local')).post('/api/isoanalyticsdata', {
        groups: names,
        start,
        end,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(isoAnalyticsAnswer.parse(body)).toEqual(body);
      const [graph, map, stats] = body.output as [
        { GroupLevel1Name: string; OpenDate: string; ApprovalCount: number }[],
        { state: string; cnt: number; state_lat: number }[],
        Record<string, unknown>[],
      ];

      const nameOf = new Map(iso.groups.map((g) => [g.group_id, g.group_name]));
      const mine = iso.merchants.filter((m) => nameOf.has(m.group_id));

      const approvals = new Map<string, number>();
      for (const m of mine) {
        const k = `${nameOf.get(m.group_id)}|${m.approved_on.slice(0, 7)}-01`;
        approvals.set(k, (approvals.get(k) ?? 0) + 1);
      }
      expect(new Map(graph.map((g) => [`${g.GroupLevel1Name}|${g.OpenDate}`, g.ApprovalCount]))).toEqual(
        approvals,
      );

      const states = new Map<string, number>();
      for (const m of mine.filter((m) => isOpen(m) && m.state))
        states.set(m.state as string, (states.get(m.state as string) ?? 0) + 1);
      expect(new Map(map.map((s) => [s.state, s.cnt]))).toEqual(states);
      expect(map.every((s) => s.state_lat > 15 && s.state_lat < 72)).toBe(true);

      expect(stats.map((s) => s.groupname).sort()).toEqual([...names].sort());
      await expectStatsOf(stats, iso, start, end);
      expect(stats.some((s) => (s.approvedCount as number) > 1)).toBe(true);
    });

  it('answers every group when none is chosen, figure for figure', async () => {
    const res = await (await as('sales@paydesk.local')).post('/api/isoanalyticsdata', {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(isoAnalyticsAnswer.parse(body)).toEqual(body);
    const [graph, map, stats] = body.output as [
      { GroupLevel1Name: string; OpenDate: string; ApprovalCount: number }[],
      { state: string; cnt: number }[],
      Record<string, unknown>[],
    ];
    expect(new Map(graph.map((g) => [`${g.GroupLevel1Name}|${g.OpenDate}`, g.ApprovalCount]))).toEqual(
      approvalsOf(),
    );
    // By month, then by group name.
    const order = graph.map((g) => [g.OpenDate, g.GroupLevel1Name] as const);
    const collator = new Intl.Collator('en-US');
    expect(
      order.every(([m, n], i) => {
        const [pm, pn] = order[i - 1] ?? ['', ''];
        return i === 0 || pm < m || (pm === m && collator.compare(pn, n) < 0);
      }),
    ).toBe(true);

    expect(new Map(map.map((s) => [s.state, s.cnt]))).toEqual(openPerState());

    const withDeals = new Set(merchants.map((m) => m.group_id));
    expect(stats.length).toBe(
      new Set(groups.filter((g) => withDeals.has(g.group_id)).map((g) => g.group_name)).size,
    );
    const start = '2016-05-01';
    const end = monthStart(new Date());
    for (const iso of isos) await expectStatsOf(stats, iso, start, end);
  });

  it("answers months that hold all of some groups' deals and part of the others", async () => {
    // Starting at the latest first approval month of the ISO's groups: that group's months all fall within the
    // months chosen (read from its totals), the groups with earlier deals only in part (summed from their months).
    const iso = isos[1];
    const firstMonth = new Map<string, string>();
    for (const m of iso.merchants) {
      const month = `${m.approved_on.slice(0, 7)}-01`;
      if (!firstMonth.has(m.group_id) || month < (firstMonth.get(m.group_id) as string))
        firstMonth.set(m.group_id, month);
    }
    const start = [...firstMonth.values()].sort().at(-1) as string;
    expect([...firstMonth.values()].some((m) => m < start)).toBe(true);
    const end = monthStart(new Date());
    const names = iso.groups.map((g) => g.group_name);
    const res = await (await as('sales@paydesk.local')).post('/api/isoanalyticsdata', {
      groups: names,
      start,
      end,
    });
    expect(res.statusCode).toBe(200);
    await expectStatsOf((res.json().output as unknown[])[2] as Record<string, unknown>[], iso, start, end);
  });

  it('answers afresh after a group or an ISO is renamed (the kept answers follow the data)', async () => {
    const c = await as('sales.admin@paydesk.local');
    const group = isos[1].groups[0] as Group;
    const before = (await c.post('/api/isoanalyticsdata', {})).json().output;
    const info = (await c.get('/api/exec/iso/GetAllInformation')).json() as { iso_name: string }[];
    expect(info.some((r) => r.iso_name === isos[1].name)).toBe(true);
    const renamed = `${group.group_name} (renamed)`;
    const isoRenamed = `${isos[1].name} (renamed)`;
    await sql`update groups set group_name = ${renamed} where group_id = ${group.group_id}`.execute(t.db);
    await sql`update partners set account_name = ${isoRenamed} where id = ${isos[1].id}`.execute(t.db);
    try {
      const after = (await c.post('/api/isoanalyticsdata', {})).json().output;
      const names = (rows: { GroupLevel1Name: string }[]) => new Set(rows.map((r) => r.GroupLevel1Name));
      expect(names(before[0]).has(group.group_name)).toBe(true);
      expect(names(after[0]).has(group.group_name)).toBe(false);
      expect(names(after[0]).has(renamed)).toBe(true);
      expect(after[2].find((s: { groupname: string }) => s.groupname === renamed)?.iso).toBe(isoRenamed);
      const infoAfter = (await c.get('/api/exec/iso/GetAllInformation')).json() as { iso_name: string }[];
      expect(infoAfter.some((r) => r.iso_name === isoRenamed)).toBe(true);
      expect(infoAfter.some((r) => r.iso_name === isos[1].name)).toBe(false);
    } finally {
      await sql`update groups set group_name = ${group.group_name} where group_id = ${group.group_id}`.execute(
        t.db,
      );
      await sql`update partners set account_name = ${isos[1].name} where id = ${isos[1].id}`.execute(t.db);
    }
  });

  it("keeps the chart through a change that leaves every group's approvals alone, and follows an approval moved", async () => {
    const c = await as('sales.admin@paydesk.local');
    type Chart = { GroupLevel1Name: string; OpenDate: string; ApprovalCount: number }[];
    const ask = async () => {
      const plain = await c.post('/api/isoanalyticsdata', {});
      const zipped = await c.post('/api/isoanalyticsdata', {}, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      // The compressed answer is put together from pieces, the chart's kept with it: the same JSON.
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
      return plain.json().output as [Chart, { state: string; cnt: number }[], Record<string, unknown>[]];
    };
    const chart = (rows: Chart) =>
      new Map(rows.map((g) => [`${g.GroupLevel1Name}|${g.OpenDate}`, g.ApprovalCount]));
    const iso = isos[1];
    const moved = iso.merchants.find(
      (m) =>
        m.approved_on >= '2016-05-01' && m.approved_on < addMonths(monthStart(new Date()), -3) && m.state,
    );
    const closing = iso.merchants.find((m) => isOpen(m) && m.state && m !== moved);
    if (!moved || !closing)
      throw new Error('the ISO needs two merchants approved before the last three months');
    const was = { approved: moved.approved_on, group: moved.group_id, closed: closing.closed_on };
    expect(chart((await ask())[0])).toEqual(approvalsOf());
    const mapVersion = async () =>
      (
        await sql<{
          version: string;
        }>`select version::text from answer_versions where name = 'bi_map'`.execute(t.db)
      ).rows[0]?.version;
    const versionBeforeClosing = await mapVersion();
    try {
      // A merchant closes: the answer's version rises, every group's approvals stay; the map and stats follow.
      await sql`update merchants set closed_on = ${today}::date where id = ${closing.id}`.execute(t.db);
      closing.closed_on = today;
      await refreshDerived(t.db, { table: 'merchants', ids: [closing.id] });
      const [afterClosing, map, stats] = await ask();
      expect(chart(afterClosing)).toEqual(approvalsOf());
      expect(new Map(map.map((s) => [s.state, s.cnt]))).toEqual(openPerState());
      await expectStatsOf(stats, iso, '2016-05-01', monthStart(new Date()));
      // A merchant's approval moved to another month: the chart follows it.
      const versionBeforeMove = await mapVersion();
      expect(versionBeforeMove).not.toBe(versionBeforeClosing);
      const month = addMonths(`${moved.approved_on.slice(0, 7)}-01`, 2);
      await sql`update merchants set approved_on = ${month}::date where id = ${moved.id}`.execute(t.db);
      moved.approved_on = month;
      await refreshDerived(t.db, { table: 'merchants', ids: [moved.id] });
      const [afterMove, mapAfterMove] = await ask();
      expect(chart(afterMove)).toEqual(approvalsOf());
      expect(chart(afterMove)).not.toEqual(chart(afterClosing));
      // No merchant changed state, group or closing day: the groups' states were not written, so the map's version
      // stayed and the map was kept, as it still is.
      expect(await mapVersion()).toBe(versionBeforeMove);
      expect(new Map(mapAfterMove.map((s) => [s.state, s.cnt]))).toEqual(openPerState());
      // The chart is kept by year: moved to a year between the first and last (only the years reached written
      // again), to a year before every approval (the first year changes: written whole), back, and to another of its
      // ISO's groups in the year between: the chart follows each, compressed or not.
      const years = [...new Set(merchants.map((m) => Number(m.approved_on.slice(0, 4))))].sort(
        (a, b) => a - b,
      );
      const between = years.find(
        (y) =>
          y > (years[0] as number) && y < (years.at(-1) as number) && y !== Number(was.approved.slice(0, 4)),
      );
      const other = iso.groups.find((g) => g.group_id !== moved.group_id);
      if (between === undefined || !other)
        throw new Error('the data needs three years of approvals and two groups');
      for (const [day, group] of [
        [`${between}-06-01`, moved.group_id],
        [`${(years[0] as number) - 3}-02-01`, moved.group_id],
        [was.approved, moved.group_id],
        [`${between}-06-01`, other.group_id],
      ] as const) {
        await sql`update merchants set approved_on = ${day}::date, group_id = ${group} where id = ${moved.id}`.execute(
          t.db,
        );
        const regrouped = group !== moved.group_id;
        moved.approved_on = day;
        moved.group_id = group;
        const before = await mapVersion();
        await refreshDerived(t.db, { table: 'merchants', ids: [moved.id] });
        const [rows, map, stats] = await ask();
        expect(chart(rows)).toEqual(approvalsOf());
        expect(new Map(map.map((s) => [s.state, s.cnt]))).toEqual(openPerState());
        await expectStatsOf(stats, iso, STATS_FIRST_MONTH, monthStart(new Date()));
        // Its states are written again only when the merchant is counted under another group.
        if (regrouped) expect(await mapVersion()).not.toBe(before);
        else expect(await mapVersion()).toBe(before);
      }
    } finally {
      await sql`update merchants set approved_on = ${was.approved}::date, group_id = ${was.group}
        where id = ${moved.id}`.execute(t.db);
      await sql`update merchants set closed_on = ${was.closed}::date where id = ${closing.id}`.execute(t.db);
      moved.approved_on = was.approved;
      moved.group_id = was.group;
      closing.closed_on = was.closed;
      await refreshDerived(t.db, { table: 'merchants', ids: [moved.id, closing.id] });
    }
    expect(chart((await ask())[0])).toEqual(approvalsOf());
  });

  it('sends a large kept answer gzip-compressed to a client that accepts it, the same JSON', async () => {
    const c = await as('sales@paydesk.local');
    const plain = await c.post('/api/isoanalyticsdata', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    // The demo's every-group answer is large enough to be compressed (more than 64 KB).
    expect(plain.rawPayload.length).toBeGreaterThan(64 * 1024);
    for (let i = 0; i < 2; i++) {
      const zipped = await c.post('/api/isoanalyticsdata', {}, { 'accept-encoding': 'gzip, deflate, br' });
      expect(zipped.statusCode).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    }
    // Small answers go out as they are.
    const one = await c.post(
      '/api/isoanalyticsdata',
      { groups: [isos[0].groups[0]?.group_name] },
      { 'accept-encoding': 'gzip' },
    );
    expect(one.headers['content-encoding']).toBeUndefined();
    expect(isoAnalyticsAnswer.parse(one.json()).output[2]).toHaveLength(1);
  });

  it('merges two groups that share a name, month by month', async () => {
    const c = await as('sales.admin@paydesk.local');
    const [a, b] = isos[1].groups as [Group, Group];
    await sql`update groups set group_name = ${a.group_name} where group_id = ${b.group_id}`.execute(t.db);
    try {
      const res = await c.post('/api/isoanalyticsdata', { groups: [a.group_name] });
      expect(res.statusCode).toBe(200);
      const [graph, , stats] = res.json().output as [
        { GroupLevel1Name: string; OpenDate: string; ApprovalCount: number }[],
        unknown,
        { groupname: string; approvedCount: number }[],
      ];
      const both = merchants.filter((m) => m.group_id === a.group_id || m.group_id === b.group_id);
      const perMonth = new Map<string, number>();
      for (const m of both) {
        const k = `${m.approved_on.slice(0, 7)}-01`;
        perMonth.set(k, (perMonth.get(k) ?? 0) + 1);
      }
      expect(graph.every((g) => g.GroupLevel1Name === a.group_name)).toBe(true);
      expect(new Map(graph.map((g) => [g.OpenDate, g.ApprovalCount]))).toEqual(perMonth);
      expect(graph.map((g) => g.OpenDate)).toEqual([...perMonth.keys()].sort());
      expect(stats).toHaveLength(1);
      expect(stats[0]?.approvedCount).toBe(both.filter((m) => m.approved_on >= '2016-05-01').length);
    } finally {
      await sql`update groups set group_name = ${b.group_name} where group_id = ${b.group_id}`.execute(t.db);
    }
  });

  it('refuses SQL text, unknown groups and bad bodies with 400, changing nothing', async () => {
    const c = await as('sales@paydesk.local');
    const sqlBody = await c.post('/api/isoanalyticsdata', { sql: "where GroupLevel1Name = 'x' or 1=1" });
    expect(sqlBody.statusCode).toBe(400);
    expect(sqlBody.json().message).toMatch(/SQL text is not accepted/);
    for (const body of [
      { groups: ['No Such Group'] },
      { groups: 'Summit' },
      { groups: [''] },
      { start: '2016-04-01' },
      { start: '2024-02-01', end: '2024-01-01' },
      { groups: [], extra: 1 },
    ]) {
      const res = await c.post('/api/isoanalyticsdata', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:/);
    }
  });

  it('counts a merchant that closes after today as open, and one that closed today as closed', async () => {
    // The rollups keep each row's closing days: a row whose last day is still to come counts its days one by one.
    const iso = isos[1];
    const closed = iso.merchants.find((m) => !isOpen(m) && m.state && m.approved_on >= '2016-05-01');
    const open = iso.merchants.find((m) => isOpen(m) && m.state && m.approved_on >= '2016-05-01');
    if (!closed || !open) throw new Error('the ISO needs an open and a closed merchant with a state');
    const was = [closed.closed_on, open.closed_on] as const;
    const later = addDays(today, 30);
    const set = async (m: Merchant, day: string | null) => {
      await sql`update merchants set closed_on = ${day}::date where id = ${m.id}`.execute(t.db);
      m.closed_on = day;
    };
    try {
      await set(closed, later);
      await set(open, today);
      await refreshDerived(t.db, { table: 'merchants', ids: [closed.id, open.id] });
      expect(isOpen(closed) && !isOpen(open)).toBe(true);
      const [, map, stats] = (
        await (await as('sales@paydesk.local')).post('/api/isoanalyticsdata', {})
      ).json().output as [unknown, { state: string; cnt: number }[], Record<string, unknown>[]];
      expect(new Map(map.map((s) => [s.state, s.cnt]))).toEqual(openPerState());
      await expectStatsOf(stats, iso, '2016-05-01', monthStart(new Date()));
    } finally {
      await set(closed, was[0]);
      await set(open, was[1]);
      await refreshDerived(t.db, { table: 'merchants', ids: [closed.id, open.id] });
    }
  });

  it("shows an ISO-bound user their own ISO's groups only and refuses another's", async () => {
    const partner = await as('partner@summitpayments.example');
    const options = (await partner.get('/api/isoanalyticsoptions')).json().output as { iso: string }[];
    expect(options.length).toBe(new Set(isos[0].groups.map((g) => g.group_name)).size);
    expect(options.every((o) => o.iso === isos[0].name)).toBe(true);
    const all = (await partner.post('/api/isoanalyticsdata', {})).json().output;
    expect(all[2].every((s: { iso: string }) => s.iso === isos[0].name)).toBe(true);
    const open = isos[0].merchants.filter((m) => isOpen(m) && m.state).length;
    expect(all[1].reduce((s: number, r: { cnt: number }) => s + r.cnt, 0)).toBe(open);
    const other = await partner.post('/api/isoanalyticsdata', { groups: [isos[1].groups[0]?.group_name] });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toMatch(/Unknown partner group/);
  });
});

describe('Business Intelligence (executive calls)', () => {
  it('answers each ISO with its deals, deal ages and shares, computed from the rows', async () => {
    const res = await (await as('sales.admin@paydesk.local')).get('/api/exec/iso/GetAllInformation');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Record<string, unknown>[];
    expect(rows.every((r) => isoInfoRow.parse(r) && r.iso_name !== '')).toBe(true);
    for (const iso of isos) {
      const ms = iso.merchants;
      const dates = ms.map((m) => m.approved_on).sort();
      const open = ms.filter(isOpen);
      const closed = ms.filter((m) => !isOpen(m));
      const openDays = open.map((m) => days(m.approved_on, today));
      const closedDays = closed.map((m) => days(m.approved_on, m.closed_on as string));
      const buckets = (list: Merchant[], to: (m: Merchant) => string) => {
        const counts = AGE_BUCKETS.map(() => 0);
        for (const m of list) {
          const b = dealAgeBucket(wholeMonths(m.approved_on, to(m)));
          counts[b] = (counts[b] ?? 0) + 1;
        }
        return counts.join(',');
      };
      const count = (f: (m: Merchant) => boolean) => ms.filter(f).length;
      expect(rows.find((r) => r.iso_name === iso.name)).toEqual({
        iso_name: iso.name,
        group_id: groups
          .filter((g) => g.partner_id === iso.id)
          .map((g) => g.group_id)
          .sort()
          .join(','),
        approved_deals: ms.length,
        first_deal: dates[0],
        last_deal: dates.at(-1),
        average_days_bw_deals: round1(days(dates[0] as string, dates.at(-1) as string) / (ms.length - 1)),
        open_deals: open.length,
        closed_deals: closed.length,
        open_longest: open.length ? Math.max(...openDays) : null,
        open_shortest: open.length ? Math.min(...openDays) : null,
        closed_longest: closed.length ? Math.max(...closedDays) : null,
        closed_shortest: closed.length ? Math.min(...closedDays) : null,
        open_age_set: buckets(open, () => today),
        closed_age_set: buckets(closed, (m) => m.closed_on as string),
        cbcal: count((m) => m.sponsor_bank === 'CBCAL'),
        esquire: count((m) => m.sponsor_bank === 'Esquire'),
        chesapeake: count((m) => m.sponsor_bank === 'Chesapeake'),
        pl_count: count((m) => m.profile === 'PayLo'),
        tr_count: count((m) => m.profile === 'Traditional'),
        hr_count: count((m) => m.profile === 'High Risk'),
        ns_count: count((m) => !['PayLo', 'Traditional', 'High Risk'].includes(m.profile)),
      });
    }
  });

  it("reads each ISO's kept figures when they are of today, and counts the merchants when they are not", async () => {
    const c = await as('sales.admin@paydesk.local');
    // A change of any table the answer reads makes the kept answer be computed again (platform/answerCache.ts).
    const ask = async () => {
      await sql`update answer_versions set version = version + 1 where name = 'bi'`.execute(t.db);
      const res = await c.get('/api/exec/iso/GetAllInformation');
      expect(res.statusCode).toBe(200);
      return res.json() as { iso_name: string; approved_deals: number }[];
    };
    const counted = await ask();
    expect(counted.length).toBeGreaterThan(1);
    // Today's rows are read: a figure changed in them shows.
    // (Of today: the seed wrote them as of its own day, which a run across midnight leaves behind.)
    await sql`update bi_iso_info set approved_deals = approved_deals + 1000, as_of = current_date`.execute(
      t.db,
    );
    expect((await ask()).map((r) => r.approved_deals)).toEqual(counted.map((r) => r.approved_deals + 1000));
    // Rows of an earlier day are not: the merchants are counted.
    await sql`update bi_iso_info set as_of = current_date - 1`.execute(t.db);
    expect(await ask()).toEqual(counted);
    // The hourly job rebuilds them once, as of today; then there is nothing to do.
    expect(await rebuildIsoInfo(t.db)).toBe(counted.length);
    expect(await rebuildIsoInfo(t.db)).toBe(0);
    expect(await ask()).toEqual(counted);
    const { rows } = await sql<{ stale: number }>`
      select count(*)::int as stale from bi_iso_info where as_of <> current_date or approved_deals > 100000`.execute(
      t.db,
    );
    expect(rows[0]?.stale).toBe(0);
    // An empty table (a database just migrated) is not filled one ISO at a time by merchant changes, which would
    // leave a list of today's rows without the other ISOs: it waits for the whole rebuild, and the list is counted.
    const { rows: one } = await sql<{ id: number }>`select id from merchants order by id limit 1`.execute(
      t.db,
    );
    await sql`delete from bi_iso_info`.execute(t.db);
    await refreshDerived(t.db, { table: 'merchants', ids: [one[0]?.id as number] });
    const { rows: after } = await sql<{ n: number }>`select count(*)::int as n from bi_iso_info`.execute(
      t.db,
    );
    expect(after[0]?.n).toBe(0);
    expect(await ask()).toEqual(counted);
    expect(await rebuildIsoInfo(t.db)).toBe(counted.length);
  });

  for (const which of [0, 1] as const)
    it(`answers ISO ${which + 1}'s transactions by month and day, income and MCCs from the rows`, async () => {
      const iso = isos[which];
      const c = await as('sales.admin@paydesk.local');
      // One ID with spaces and a comma list: normalized to the ISO's group IDs.
      const ids = iso.groups.map((g) => g.group_id);
      const groupIDs = [` ${ids[0]} `, ids.slice(1).join(' , ')].filter((s) => s.trim() !== '');
      const mine = iso.merchants.filter((m) => ids.includes(m.group_id));
      const byId = new Map(mine.map((m) => [m.id, m]));
      const date = addMonths(monthStart(new Date()), -12);

      const tx = await c.post('/api/exec/iso/GetTransactions', { groupIDs, date, monthly: true, mcc: 'All' });
      expect(tx.statusCode).toBe(200);
      const txRows = tx.json() as Record<string, number | string>[];
      expect(txRows).toHaveLength(13);
      const monthly = await rowsOf<{
        merchant_id: number;
        month: string;
        volume: string;
        transactions: number;
        chargebacks: number;
        refunds: number;
      }>(
        sql`select merchant_id, month::text, volume::text, transactions, chargebacks, refunds from merchant_monthly
            where partner_id = ${iso.id} and month >= ${date}::date`,
      );
      for (const row of txRows) {
        const inMonth = monthly.filter((a) => a.month === row.txn_date && byId.has(a.merchant_id));
        const monthEnd = addMonths(row.txn_date as string, 1);
        expect(row.txn_volume).toBeCloseTo(
          Number(inMonth.reduce((s, a) => s + cents(a.volume), 0n)) / 100,
          2,
        );
        expect(row.txn_count).toBe(inMonth.reduce((s, a) => s + a.transactions, 0));
        expect(row.chbk_count).toBe(inMonth.reduce((s, a) => s + a.chargebacks, 0));
        expect(row.ref_count).toBe(inMonth.reduce((s, a) => s + a.refunds, 0));
        expect(row.active_count).toBe(inMonth.filter((a) => a.transactions > 0).length);
        expect(row.tr_txn_count).toBe(
          inMonth
            .filter((a) => byId.get(a.merchant_id)?.profile === 'Traditional')
            .reduce((s, a) => s + a.transactions, 0),
        );
        expect(row.mid_count).toBe(
          mine.filter((m) => m.approved_on < monthEnd && (m.closed_on === null || m.closed_on >= monthEnd))
            .length,
        );
      }
      expect(txRows.some((r) => (r.txn_volume as number) > 0)).toBe(true);

      // Up to the day read at the test's start, named: the range the server answers does not depend on when the
      // call comes (a run across midnight).
      const since = addDays(today, -20);
      const daily = (
        await c.post('/api/exec/iso/GetTransactions', {
          groupIDs,
          date: since,
          end: today,
          monthly: false,
          mcc: 'All',
        })
      ).json();
      const dayRows = await rowsOf<{ day: string; transactions: number; merchant_id: number }>(
        sql`select day::text, transactions, merchant_id from merchant_daily where partner_id = ${iso.id} and day >= ${since}::date`,
      );
      expect(daily).toHaveLength(days(since, today) + 1);
      // Open at the end of each day: approved by it and not closed by it.
      for (const row of daily)
        expect(row.mid_count, row.txn_date).toBe(
          mine.filter(
            (m) => m.approved_on <= row.txn_date && (m.closed_on === null || m.closed_on > row.txn_date),
          ).length,
        );
      for (const row of daily)
        expect(row.txn_count).toBe(
          dayRows
            .filter((d) => d.day === row.txn_date && byId.has(d.merchant_id))
            .reduce((s, d) => s + d.transactions, 0),
        );

      const inc = await c.post('/api/exec/iso/isoGetIncome', { groupIDs, date, mcc: 'All' });
      expect(inc.statusCode).toBe(200);
      const incomeRows = await rowsOf<{
        merchant_id: number;
        month: string;
        gross: string;
        net: string;
        expenses: string;
        payouts: string;
      }>(
        sql`select merchant_id, month::text, gross::text, net::text, expenses::text, payouts::text from merchant_income
            where partner_id = ${iso.id} and month >= ${date}::date`,
      );
      for (const row of inc.json() as Record<string, number | string>[]) {
        const inMonth = incomeRows.filter((i) => i.month === row.income_date && byId.has(i.merchant_id));
        const total = (k: 'gross' | 'net' | 'expenses' | 'payouts') =>
          Number(inMonth.reduce((s, i) => s + cents(i[k]), 0n)) / 100;
        expect(row.gross_income).toBeCloseTo(total('gross'), 2);
        expect(row.net_income).toBeCloseTo(total('net'), 2);
        expect(row.expenses).toBeCloseTo(total('expenses'), 2);
        expect(row.payouts).toBeCloseTo(total('payouts'), 2);
        expect(row.mid_count).toBe(inMonth.length);
      }

      const mcc = (await c.post('/api/exec/iso/GetMCC', { groupIDs })).json() as {
        mcc_code: string;
        mcc_desc: string;
        mcc_count: number;
      }[];
      const counts = new Map<string, number>();
      for (const m of mine) counts.set(m.mcc, (counts.get(m.mcc) ?? 0) + 1);
      expect(new Map(mcc.map((r) => [r.mcc_code, r.mcc_count]))).toEqual(counts);
      // The most merchants first, then by code; each code with its description.
      const descriptions = new Map(
        (
          await rowsOf<{ code: string; description: string }>(sql`select code, description from mcc_codes`)
        ).map((r) => [r.code, r.description]),
      );
      expect(mcc.map((r) => [r.mcc_code, r.mcc_desc])).toEqual(
        [...counts]
          .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
          .map(([code]) => [code, descriptions.get(code) ?? '']),
      );

      // One MCC: only its merchants' months.
      const [topMcc] = mcc;
      const oneMcc = (
        await c.post('/api/exec/iso/GetTransactions', {
          groupIDs,
          date,
          monthly: true,
          mcc: topMcc?.mcc_code,
        })
      ).json();
      const ofMcc = new Set(mine.filter((m) => m.mcc === topMcc?.mcc_code).map((m) => m.id));
      expect(oneMcc.reduce((s: number, r: { txn_count: number }) => s + r.txn_count, 0)).toBe(
        monthly.filter((a) => ofMcc.has(a.merchant_id)).reduce((s, a) => s + a.transactions, 0),
      );
    });

  it('refuses days older than the kept daily figures (400) and answers such a month by its monthly total', async () => {
    const c = await as('sales.admin@paydesk.local');
    const firstKept = firstDailyDay(new Date());
    // The month before the daily window, as the screen asks for it when that month is chosen.
    const month = addMonths(firstKept, -1);
    const monthEnd = new Date(Date.parse(firstKept) - 86_400_000).toISOString().slice(0, 10);
    for (const iso of isos) {
      const groupIDs = iso.groups.map((g) => g.group_id);
      const daily = await c.post('/api/exec/iso/GetTransactions', {
        groupIDs,
        date: month,
        end: monthEnd,
        monthly: false,
      });
      expect(daily.statusCode).toBe(400);
      expect(daily.json().message).toBe(
        `Daily figures are kept for the last 13 months, from ${firstKept}: for ${month}, ask for monthly figures (monthly: true)`,
      );
      // The first kept day itself is still answered by day.
      const kept = await c.post('/api/exec/iso/GetTransactions', {
        groupIDs,
        date: firstKept,
        end: `${firstKept.slice(0, 8)}28`,
        monthly: false,
      });
      expect(kept.statusCode).toBe(200);

      const res = await c.post('/api/exec/iso/GetTransactions', {
        groupIDs,
        date: month,
        end: monthEnd,
        monthly: true,
      });
      expect(res.statusCode).toBe(200);
      const [oracle] = await rowsOf<{
        volume: string;
        transactions: number;
        chbk_volume: string;
        chargebacks: number;
        ref_volume: string;
        refunds: number;
        active: number;
      }>(sql`
        select coalesce(sum(a.volume), 0)::text as volume, coalesce(sum(a.transactions), 0)::int as transactions,
               coalesce(sum(a.chargeback_volume), 0)::text as chbk_volume, coalesce(sum(a.chargebacks), 0)::int as chargebacks,
               coalesce(sum(a.refund_volume), 0)::text as ref_volume, coalesce(sum(a.refunds), 0)::int as refunds,
               count(*) filter (where a.transactions > 0)::int as active
        from merchant_monthly a join merchants m on m.id = a.merchant_id
        where m.group_id in (${sql.join(groupIDs)}) and a.month = ${month}::date`);
      if (!oracle) throw new Error('no oracle row');
      expect(Number(oracle.volume), iso.name).toBeGreaterThan(0);
      const rows = res.json() as Record<string, number | string>[];
      expect(rows).toHaveLength(1);
      const [row] = rows as [Record<string, number | string>];
      expect(row.txn_date).toBe(month);
      expect(row.txn_volume).toBeCloseTo(Number(oracle.volume), 2);
      expect(row.txn_count).toBe(oracle.transactions);
      expect(row.chbk_volume).toBeCloseTo(Number(oracle.chbk_volume), 2);
      expect(row.chbk_count).toBe(oracle.chargebacks);
      expect(row.ref_volume).toBeCloseTo(Number(oracle.ref_volume), 2);
      expect(row.ref_count).toBe(oracle.refunds);
      expect(row.active_count).toBe(oracle.active);
    }
  });

  it("agrees with the Financial dashboard's net income for the same ISO and months", async () => {
    const iso = isos[1];
    const groupIDs = groups.filter((g) => g.partner_id === iso.id).map((g) => g.group_id);
    const date = addMonths(monthStart(new Date()), -12);
    const admin = await as('sales.admin@paydesk.local');
    const inc = (await admin.post('/api/exec/iso/isoGetIncome', { groupIDs, date, mcc: 'All' })).json();
    const fin = (await admin.post('/api/findata', { filters: { partner: [iso.name] }, start: date })).json()
      .output as { Year_Months: string; Income: string }[];
    expect(inc.map((r: { net_income: number }) => r.net_income.toFixed(2))).toEqual(
      fin.map((f) => Number(f.Income).toFixed(2)),
    );
  });

  it('refuses callers without the Business Intelligence capability (403), ISO-bound users included', async () => {
    for (const email of ['sales@paydesk.local', 'partner@summitpayments.example']) {
      const c = await as(email);
      expect((await c.get('/api/exec/iso/GetAllInformation')).statusCode).toBe(403);
      const groupIDs = [isos[0].groups[0]?.group_id];
      const bodies: [string, unknown][] = [
        ['GetTransactions', { groupIDs, date: '2025-01-01', monthly: true }],
        ['isoGetIncome', { groupIDs, date: '2025-01-01' }],
        ['GetMCC', { groupIDs }],
      ];
      for (const [path, body] of bodies)
        expect((await c.post(`/api/exec/iso/${path}`, body)).statusCode, `${email} ${path}`).toBe(403);
    }
  });

  it('refuses SQL text, unknown group IDs or MCCs and bad bodies with 400', async () => {
    const c = await as('sales.admin@paydesk.local');
    const id = isos[0].groups[0]?.group_id as string;
    const cases: [string, unknown][] = [
      ['GetMCC', { groupIDs: [id], sql: 'select 1' }],
      ['GetMCC', { groupIDs: ['999999999'] }],
      ['GetMCC', { groupIDs: [] }],
      ['GetMCC', { groupIDs: id }],
      ['GetMCC', { groupIDs: ["1' or '1'='1"] }],
      ['GetTransactions', { groupIDs: [id], date: '2025-01-01' }],
      ['GetTransactions', { groupIDs: [id], date: '2025-13-01', monthly: true }],
      ['GetTransactions', { groupIDs: [id], date: '2025-01-01', monthly: false }],
      ['GetTransactions', { groupIDs: [id], date: '2025-01-01', monthly: true, mcc: '0000' }],
      ['isoGetIncome', { groupIDs: [id], date: 'yesterday' }],
      ['isoGetIncome', { groupIDs: [id], date: '2025-01-01', mcc: "5812' --" }],
    ];
    for (const [path, body] of cases) {
      const res = await c.post(`/api/exec/iso/${path}`, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });
});
