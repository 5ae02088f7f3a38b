import { addMonths, isoEndpoints, isoStatus, lastDayOfMonth, monthStart } from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeTransaction } from '../src/platform/scope';
import { Client, clearOfMidnight, type TestApp, testApp } from './helpers';

let t: TestApp;
let admin: Client;

interface App {
  submitted: string;
  approved: string | null;
  profile: string;
  bank: string;
  iso: string;
  inHouse: boolean;
  status: string;
  level: number | null;
  underwriter: string | null;
  rm: string | null;
}
let apps: App[] = [];
let merchants: Array<{ closed: string | null; iso: string; inHouse: boolean }> = [];

const day = (d: Date) => d.toISOString().slice(0, 10);
// The file's day, and its month: the expected figures are of them, so the file starts clear of a midnight.
let now: Date;
let today: string;
let yesterday: string;
let thisMonth: string;
let lastMonth: string;
const inMonth = (d: string | null, m: string) => d !== null && d >= m && d < addMonths(m, 1);

beforeAll(async () => {
  await clearOfMidnight();
  now = new Date();
  today = day(now);
  yesterday = day(new Date(now.getTime() - 86_400_000));
  thisMonth = monthStart(now);
  lastMonth = addMonths(thisMonth, -1);
  t = await testApp();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
  // A few applications today, so the live counts are not all zero.
  const partners = await t.db.selectFrom('partners').select(['id', 'in_house']).orderBy('id').execute();
  const at = new Date(Math.max(Date.parse(`${today}T00:00:00Z`), now.getTime() - 60_000));
  for (const [i, p] of partners
    .slice(0, 4)
    .concat(partners.filter((x) => x.in_house))
    .entries()) {
    await t.db
      .insertInto('applications')
      .values({
        partner_id: p.id,
        dba: `Today Shop ${i}`,
        profile: ['PayLo', 'Traditional', 'High Risk', 'Unassigned'][i % 4] as string,
        sponsor_bank: 'CBCAL',
        status: i % 2 === 0 ? 'Approved' : 'Pending',
        pending_level: i % 2 === 0 ? null : 1,
        submitted_at: at,
        approved_at: i % 2 === 0 ? at : null,
        underwriter: 'Helen Cho',
        rm: 'Dana Whitfield',
      })
      .execute();
  }
  const rows = await t.db
    .selectFrom('applications as a')
    .innerJoin('partners as p', 'p.id', 'a.partner_id')
    .select([
      'a.submitted_at',
      'a.approved_at',
      'a.profile',
      'a.sponsor_bank',
      'p.account_name',
      'p.in_house',
      'a.status',
      'a.pending_level',
      'a.underwriter',
      'a.rm',
    ])
    .execute();
  apps = rows.map((r) => ({
    submitted: day(new Date(r.submitted_at)),
    approved: r.approved_at ? day(new Date(r.approved_at)) : null,
    profile: r.profile,
    bank: r.sponsor_bank,
    iso: r.account_name,
    inHouse: r.in_house,
    status: r.status,
    level: r.pending_level,
    underwriter: r.underwriter,
    rm: r.rm,
  }));
  const ms = await t.db
    .selectFrom('merchants as m')
    .innerJoin('partners as p', 'p.id', 'm.partner_id')
    .select(['m.closed_on', 'p.account_name', 'p.in_house'])
    .execute();
  merchants = ms.map((m) => ({ closed: m.closed_on, iso: m.account_name, inHouse: m.in_house }));
});
afterAll(async () => {
  await t?.close();
});

const json = async (url: string, body?: unknown) => {
  const res = await admin.post(url, body);
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json();
};

function tally<T>(items: T[], key: (x: T) => string) {
  const out: Record<string, number> = {};
  for (const x of items) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

describe('sales calls', () => {
  it('today and yesterday, submitted and approved, all and in-house', async () => {
    expect(await json('/api/submittedToday')).toEqual([
      { Submitted: apps.filter((a) => a.submitted === today).length },
    ]);
    expect(await json('/api/approvedToday')).toEqual([
      { Approved: apps.filter((a) => a.approved === today).length },
    ]);
    expect((await json('/api/approvedToday'))[0].Approved).toBeGreaterThan(0);
    expect(await json('/api/submittedYest')).toEqual([
      { Submitted: apps.filter((a) => a.submitted === yesterday).length },
    ]);
    expect(await json('/api/approvedYest')).toEqual([
      { Approved: apps.filter((a) => a.approved === yesterday).length },
    ]);
    expect(await json('/api/submittedTodayInHouse')).toEqual([
      { Submitted: apps.filter((a) => a.submitted === today && a.inHouse).length },
    ]);
    expect(await json('/api/approvedTodayInHouse')).toEqual([
      { Approved: apps.filter((a) => a.approved === today && a.inHouse).length },
    ]);
  });

  it('today and yesterday by profile', async () => {
    const by = (list: App[], field: 'submitted' | 'approved', d: string, profile?: string) =>
      list.filter((a) => a[field] === d && (!profile || a.profile === profile)).length;
    expect(await json('/api/approvedTodayByProfile')).toEqual([
      {
        Approved: by(apps, 'approved', today),
        PLApproved: by(apps, 'approved', today, 'PayLo'),
        TRApproved: by(apps, 'approved', today, 'Traditional'),
        HRApproved: by(apps, 'approved', today, 'High Risk'),
      },
    ]);
    expect(await json('/api/submittedYestByProfile')).toEqual([
      {
        Submitted: by(apps, 'submitted', yesterday),
        PLSubmitted: by(apps, 'submitted', yesterday, 'PayLo'),
        TRSubmitted: by(apps, 'submitted', yesterday, 'Traditional'),
        HRSubmitted: by(apps, 'submitted', yesterday, 'High Risk'),
      },
    ]);
  });

  it('a month by offset: approvals by profile and bank, submissions, closures', async () => {
    for (const cntr of [0, -1, -14]) {
      const m = addMonths(thisMonth, cntr);
      const approved = apps.filter((a) => inMonth(a.approved, m));
      const [main, bankProfile] = await json('/api/approvedMTD', { cntr });
      expect(main.Approved).toBe(approved.length);
      expect(main.PayLo).toBe(approved.filter((a) => a.profile === 'PayLo').length);
      expect(main.HighRisk).toBe(approved.filter((a) => a.profile === 'High Risk').length);
      expect(main.CBCAL).toBe(approved.filter((a) => a.bank === 'CBCAL').length);
      expect(main.Esquire).toBe(approved.filter((a) => a.bank === 'Esquire').length);
      expect(bankProfile.CBCAL_PL).toBe(
        approved.filter((a) => a.bank === 'CBCAL' && a.profile === 'PayLo').length,
      );
      expect(bankProfile.PPS_TR).toBe(
        approved.filter((a) => a.bank === 'PPS' && a.profile === 'Traditional').length,
      );
      expect(await json('/api/submittedMTD', { cntr })).toEqual([
        { Submitted: apps.filter((a) => inMonth(a.submitted, m)).length },
      ]);
      expect(await json('/api/closedMTD', { cntr })).toEqual([
        { Closed: merchants.filter((x) => inMonth(x.closed, m)).length },
      ]);
      expect(await json('/api/approvedMTDInHouse', { cntr })).toEqual([
        { Approved: approved.filter((a) => a.inHouse).length },
      ]);
      expect(await json('/api/submittedMTDInHouse', { cntr })).toEqual([
        { Submitted: apps.filter((a) => a.inHouse && inMonth(a.submitted, m)).length },
      ]);
    }
  });

  it('partner tables: approvals and closures by month, today’s submitted and approved', async () => {
    const approvals = tally(
      apps.filter((a) => inMonth(a.approved, lastMonth)),
      (a) => a.iso,
    );
    const rows = await json('/api/approvedMTDPartner', { cntr: -1 });
    expect(
      Object.fromEntries(rows.map((r: { ISO: string; appCount: number }) => [r.ISO, r.appCount])),
    ).toEqual(approvals);
    expect(rows.map((r: { appCount: number }) => r.appCount)).toEqual(
      [...rows.map((r: { appCount: number }) => r.appCount)].sort((a, b) => b - a),
    );
    const closures = tally(
      merchants.filter((m) => inMonth(m.closed, lastMonth)),
      (m) => m.iso,
    );
    const closed = await json('/api/ClosedMTDPartner', { cntr: -1 });
    expect(
      Object.fromEntries(closed.map((r: { ISO: string; closureCount: number }) => [r.ISO, r.closureCount])),
    ).toEqual(closures);
    const todays = await json('/api/submittedApprovedTodayPartner');
    for (const r of todays) {
      expect(r.subCount).toBe(apps.filter((a) => a.iso === r.ISO && a.submitted === today).length);
      expect(r.appCount).toBe(apps.filter((a) => a.iso === r.ISO && a.approved === today).length);
    }
    expect(todays.length).toBe(
      new Set(apps.filter((a) => a.submitted === today || a.approved === today).map((a) => a.iso)).size,
    );
    const inHouse = await json('/api/approvedMTDInHousePartner', { cntr: -1 });
    expect(inHouse.every((r: { ISO: string }) => apps.some((a) => a.iso === r.ISO && a.inHouse))).toBe(true);
    expect((await json('/api/submittedApprovedTodayInHousePartner')).length).toBeGreaterThan(0);
  });

  it('the merchants behind a partner row', async () => {
    const [top] = await json('/api/approvedMTDPartner', { cntr: -1 });
    const rows = await json('/api/partnerMerchants', { iso: top.ISO, list: 'approved', cntr: -1 });
    expect(rows).toHaveLength(top.appCount);
    expect(Object.keys(rows[0]).sort()).toEqual(['DBA', 'ISO', 'MID', 'SponsorBank', 'id', 'profile']);
    expect(rows.every((r: { ISO: string }) => r.ISO === top.ISO)).toBe(true);
  });

  it('pending applications by level, all and over 45 days', async () => {
    const cutoff = day(new Date(Date.parse(`${today}T00:00:00Z`) - 45 * 86_400_000));
    const pending = apps.filter((a) => a.status === 'Pending');
    const expectLevels = (list: App[]) =>
      [1, 2, 3].map((l) => ({ Lvl: `Level${l}`, lvlCount: list.filter((a) => a.level === l).length }));
    expect(await json('/api/pending45days')).toEqual(
      expectLevels(pending.filter((a) => a.submitted < cutoff)),
    );
    const all = await admin.get('/api/pend');
    expect(all.json()).toEqual(expectLevels(pending));
  });

  it('day, month, year, goals, holidays and year-to-date details by date', async () => {
    expect(await json('/api/day', { dt: yesterday })).toEqual([
      {
        Submitted: apps.filter((a) => a.submitted === yesterday).length,
        Approved: apps.filter((a) => a.approved === yesterday).length,
      },
    ]);
    const [month] = await json('/api/month', { dt: `${lastMonth.slice(0, 7)}-15` });
    expect(month.Approved).toBe(apps.filter((a) => inMonth(a.approved, lastMonth)).length);
    expect(month.Closed).toBe(merchants.filter((m) => inMonth(m.closed, lastMonth)).length);
    const year = await json('/api/year', { dt: '2023-06-30' });
    // Every month of the year, each counted from the raw rows.
    const expectedYear = Array.from({ length: 12 }, (_, i) => {
      const month = `2023-${String(i + 1).padStart(2, '0')}-01`;
      return { Month: month.slice(0, 7), Approved: apps.filter((a) => inMonth(a.approved, month)).length };
    });
    expect(year).toEqual(expectedYear);
    expect(expectedYear.filter((m) => m.Approved > 0).length).toBeGreaterThan(6);
    const goals = await json('/api/salesYTDgoals', { dt: '2023-06-30' });
    expect(goals.map((g: { Month: string }) => g.Month)).toEqual(year.map((y: { Month: string }) => y.Month));
    expect(goals.every((g: { goal: number }) => g.goal > 0)).toBe(true);
    expect(await json('/api/holiday', { dt: '2025-03-01' })).toContainEqual({ holiday: '2025-11-27' });
    const details = await json('/api/approvedYTD_Details', { dt: today });
    expect(details).toHaveLength(
      apps.filter(
        (a) => a.approved !== null && a.approved >= `${today.slice(0, 4)}-01-01` && a.approved <= today,
      ).length,
    );
  });

  it('year-to-date details: every approval of the year with its merchant, newest first, kept until a change', async () => {
    // The oracle: the raw rows, joined and ordered here.
    const expected = async (iso?: string, from = `${today.slice(0, 4)}-01-01`, to = today) => {
      const rows = await t.db
        .selectFrom('applications as a')
        .innerJoin('partners as p', 'p.id', 'a.partner_id')
        .leftJoin('merchants as m', 'm.id', 'a.merchant_id')
        .select([
          'a.id',
          'm.mid',
          'm.dba as mdba',
          'a.dba',
          'a.sponsor_bank',
          'a.profile',
          'p.account_name',
          'a.approved_at',
        ])
        .where('a.approved_at', 'is not', null)
        .execute();
      return rows
        .map((r) => ({
          id: r.id,
          MID: r.mid,
          DBA: r.mdba ?? r.dba,
          SponsorBank: r.sponsor_bank,
          profile: r.profile,
          ISO: r.account_name,
          approved: day(new Date(r.approved_at as Date)),
          at: new Date(r.approved_at as Date).getTime(),
        }))
        .filter((r) => r.approved >= from && r.approved <= to)
        .filter((r) => iso === undefined || r.ISO === iso)
        .sort((a, b) => b.at - a.at || a.id - b.id)
        .map(({ at: _, ...r }) => r);
    };
    const first = await expected();
    expect(first.length).toBeGreaterThan(10);
    expect(first.some((r) => r.MID !== null) && first.some((r) => r.MID === null)).toBe(true);
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(first);
    // Asked again (kept), then after an approval is renamed through its merchant and another is approved.
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(first);
    const boarded = first.find((r) => r.MID !== null) as (typeof first)[number];
    await t.db
      .updateTable('merchants')
      .set({ dba: 'Renamed After Approval' })
      .where('mid', '=', boarded.MID as string)
      .execute();
    const pending = await t.db
      .selectFrom('applications')
      .select(['id', 'status', 'pending_level'])
      .where('approved_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('applications')
      .set({ status: 'Approved', approved_at: new Date(), pending_level: null })
      .where('id', '=', pending.id)
      .execute();
    const after = await expected();
    expect(after.find((r) => r.id === boarded.id)?.DBA).toBe('Renamed After Approval');
    expect(after.some((r) => r.id === pending.id)).toBe(true);
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(after);
    // An earlier day is its own answer; an ISO-bound user's list is their ISO's approvals only.
    const january = await json('/api/approvedYTD_Details', { dt: `${today.slice(0, 4)}-01-31` });
    expect(january).toEqual(after.filter((r) => r.approved <= `${today.slice(0, 4)}-01-31`));
    // A detail modal's month or day (`from`, PayDesk's addition): those days' rows only, from the same kept parts:
    // this month, today, last year's December (a whole earlier month: the year list's part), a range of last year
    // starting inside one month and ending inside another, and this year's earlier months when there are some.
    const year = Number(today.slice(0, 4));
    const thisMonth = `${today.slice(0, 7)}-01`;
    const ranges: Array<readonly [string, string]> = [
      [thisMonth, today],
      [today, today],
      [`${year - 1}-12-01`, `${year - 1}-12-31`],
      [`${year - 1}-02-17`, `${year - 1}-05-10`],
      [`${year - 1}-01-01`, `${year - 1}-06-30`],
    ];
    if (thisMonth > `${year}-01-01`) {
      const lastMonth = addMonths(thisMonth, -1);
      ranges.push([lastMonth, lastDayOfMonth(lastMonth)], [`${year}-01-17`, today]);
    }
    for (const [from, to] of ranges) {
      const asked = await json('/api/approvedYTD_Details', { dt: to, from });
      expect(asked, `${from}..${to}`).toEqual(await expected(undefined, from, to));
    }
    expect((await expected(undefined, `${year - 1}-02-17`, `${year - 1}-05-10`)).length).toBeGreaterThan(10);
    // Asked again: the same, now from the kept parts.
    for (const [from, to] of ranges)
      expect(await json('/api/approvedYTD_Details', { dt: to, from }), `${from}..${to}`).toEqual(
        await expected(undefined, from, to),
      );
    const within = (list: typeof after, from: string, to: string) =>
      list.filter((r) => r.approved >= from && r.approved <= to);
    const thisYear = ranges.filter(([from]) => from >= `${year}-01-01`);
    for (const bad of [
      { dt: `${year}-01-01`, from: `${year}-01-02` },
      { dt: today, from: `${year - 1}-12-31` },
      { dt: today, from: 'yesterday' },
      { dt: today, from: null },
    ]) {
      const res = await admin.post('/api/approvedYTD_Details', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const mine = await partner.post('/api/approvedYTD_Details', { dt: today });
    expect(mine.statusCode).toBe(200);
    const own = await expected('Summit Payment Group');
    expect(own.length).toBeGreaterThan(0);
    expect(mine.json()).toEqual(own);

    // The answer is kept in parts with a version per day: a write raises the versions of the days it touches (an
    // instant's day in any time zone: the instant and 14 hours either side, in UTC) and of no other, and the
    // answer is whole again after each.
    const versions = async () =>
      Object.fromEntries(
        (
          await sql<{ part: string; version: string }>`select part, version::text as version
            from answer_part_versions where name = 'approvals'`.execute(t.db)
        ).rows.map((r) => [r.part, r.version]),
      );
    const daysOf = (at: Date) =>
      [
        ...new Set(
          [-14, 0, 14].map((h) => new Date(at.getTime() + h * 3_600_000).toISOString().slice(0, 10)),
        ),
      ].sort();
    const raised = (before: Record<string, string>, after: Record<string, string>) =>
      Object.keys(after)
        .filter((k) => after[k] !== before[k])
        .sort();
    // An approval moved from an earlier month of the year into January: the days it left and joined are read again.
    const earlier = after.find(
      (r) => r.approved < `${today.slice(0, 7)}-01` && r.approved > `${today.slice(0, 4)}-02-15`,
    );
    expect(earlier).toBeDefined();
    const moved = earlier as (typeof after)[number];
    const { approved_at: movedFrom } = await t.db
      .selectFrom('applications')
      .select('approved_at')
      .where('id', '=', moved.id)
      .executeTakeFirstOrThrow();
    const movedTo = new Date(`${today.slice(0, 4)}-01-20T12:00:00Z`);
    const beforeMove = await versions();
    await t.db.updateTable('applications').set({ approved_at: movedTo }).where('id', '=', moved.id).execute();
    expect(raised(beforeMove, await versions())).toEqual(
      [...new Set([...daysOf(new Date(movedFrom as Date)), ...daysOf(movedTo)])].sort(),
    );
    const moved2 = await expected();
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(moved2);
    // The ranges that hold the days it left and joined are whole again too.
    for (const [from, to] of thisYear)
      expect(await json('/api/approvedYTD_Details', { dt: to, from }), `${from}..${to}`).toEqual(
        within(moved2, from, to),
      );
    await t.db
      .updateTable('applications')
      .set({ approved_at: movedFrom })
      .where('id', '=', moved.id)
      .execute();
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(after);
    // A merchant approved in an earlier month renamed: its approval's day is read again.
    const older = after.find((r) => r.MID !== null && r.approved < `${today.slice(0, 7)}-01`);
    expect(older).toBeDefined();
    const oldMerchant = older as (typeof after)[number];
    const beforeOlder = await versions();
    await t.db
      .updateTable('merchants')
      .set({ dba: 'Renamed Months Later' })
      .where('mid', '=', oldMerchant.MID as string)
      .execute();
    expect(raised(beforeOlder, await versions())).toContain(oldMerchant.approved);
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(
      after.map((r) => (r.id === oldMerchant.id ? { ...r, DBA: 'Renamed Months Later' } : r)),
    );
    await t.db
      .updateTable('merchants')
      .set({ dba: oldMerchant.DBA })
      .where('mid', '=', oldMerchant.MID as string)
      .execute();
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(after);
    // A merchant's status is not in the answer: no day is raised.
    const beforeStatus = await versions();
    await t.db
      .updateTable('merchants')
      .set({ status: sql`status` })
      .where('mid', '=', boarded.MID as string)
      .execute();
    expect(await versions()).toEqual(beforeStatus);
    // A partner renamed: every day with one of its approvals is read again.
    const isoOf = after.find((r) => r.ISO !== 'Summit Payment Group') as (typeof after)[number];
    const beforeRename = await versions();
    await t.db
      .updateTable('partners')
      .set({ account_name: 'Renamed Partner Group' })
      .where('account_name', '=', isoOf.ISO)
      .execute();
    const renamedDays = raised(beforeRename, await versions());
    for (const r of after.filter((x) => x.ISO === isoOf.ISO)) expect(renamedDays).toContain(r.approved);
    const renamed = await json('/api/approvedYTD_Details', { dt: today });
    expect(renamed).toEqual(
      after.map((r) => (r.ISO === isoOf.ISO ? { ...r, ISO: 'Renamed Partner Group' } : r)),
    );
    await t.db
      .updateTable('partners')
      .set({ account_name: isoOf.ISO })
      .where('account_name', '=', 'Renamed Partner Group')
      .execute();
    // A merchant moved to another ISO: its approval stays its former ISO's, whose users no longer see the merchant
    // (no MID, the application's own DBA), while staff see it as before.
    const summitBoarded = own.find((r) => r.MID !== null) as (typeof own)[number];
    const { id: merchantId, partner_id: merchantIso } = await t.db
      .selectFrom('merchants')
      .select(['id', 'partner_id'])
      .where('mid', '=', summitBoarded.MID as string)
      .executeTakeFirstOrThrow();
    const { id: otherIso } = await t.db
      .selectFrom('partners')
      .select('id')
      .where('account_name', '<>', 'Summit Payment Group')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { dba: applicationDba } = await t.db
      .selectFrom('applications')
      .select('dba')
      .where('id', '=', summitBoarded.id)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('merchants').set({ partner_id: otherIso }).where('id', '=', merchantId).execute();
    try {
      expect((await partner.post('/api/approvedYTD_Details', { dt: today })).json()).toEqual(
        own.map((r) => (r.id === summitBoarded.id ? { ...r, MID: null, DBA: applicationDba } : r)),
      );
      expect(
        (await json('/api/approvedYTD_Details', { dt: today })).find(
          (r: { id: number }) => r.id === summitBoarded.id,
        ),
      ).toEqual(after.find((r) => r.id === summitBoarded.id));
    } finally {
      await t.db
        .updateTable('merchants')
        .set({ partner_id: merchantIso })
        .where('id', '=', merchantId)
        .execute();
    }
    expect((await partner.post('/api/approvedYTD_Details', { dt: today })).json()).toEqual(own);
    // The other tests count from the rows as they were.
    await t.db
      .updateTable('merchants')
      .set({ dba: boarded.DBA })
      .where('mid', '=', boarded.MID as string)
      .execute();
    await t.db
      .updateTable('applications')
      .set({ status: pending.status, approved_at: null, pending_level: pending.pending_level })
      .where('id', '=', pending.id)
      .execute();
    expect(await json('/api/approvedYTD_Details', { dt: today })).toEqual(first);
  });

  it('validates cntr and dt', async () => {
    for (const body of [{ cntr: 1 }, { cntr: 0.5 }, { cntr: -1000 }, {}, { cntr: '0' }]) {
      const res = await admin.post('/api/approvedMTD', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.post('/api/day', { dt: '2024-02-30' })).statusCode).toBe(400);
    expect((await admin.post('/api/approvedToday', { cntr: 0 })).statusCode).toBe(400);
  });

  it('an ISO-bound user gets their ISO’s figures only', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const [main] = (await partner.post('/api/approvedMTD', { cntr: -1 })).json();
    expect(main.Approved).toBe(
      apps.filter((a) => a.iso === 'Summit Payment Group' && inMonth(a.approved, lastMonth)).length,
    );
    const rows = (await partner.post('/api/approvedMTDPartner', { cntr: -1 })).json();
    expect(rows.every((r: { ISO: string }) => r.ISO === 'Summit Payment Group')).toBe(true);
  });

  it('goals are the company’s: staff get them, an ISO-bound user gets no goal, never the company figures', async () => {
    const stored = await t.db.selectFrom('approval_goals').select(['month', 'goal']).execute();
    const companyGoal = (month: string) => stored.find((g) => g.month === `${month}-01`)?.goal ?? 0;
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    for (const dt of ['2023-06-30', today]) {
      const staff = await json('/api/salesYTDgoals', { dt });
      expect(staff).toEqual(
        staff.map((g: { Month: string }) => ({ Month: g.Month, goal: companyGoal(g.Month) })),
      );
      const res = await partner.post('/api/salesYTDgoals', { dt });
      expect(res.statusCode).toBe(200);
      const theirs = res.json();
      expect(theirs.map((g: { Month: string }) => g.Month)).toEqual(
        staff.map((g: { Month: string }) => g.Month),
      );
      expect(theirs.every((g: { goal: unknown }) => g.goal === null)).toBe(true);
    }
    // Defence in depth: the ISO role cannot read the goals table at all.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await scopeTransaction(trx, 1);
        return trx.selectFrom('approval_goals').selectAll().execute();
      }),
    ).rejects.toThrow(/permission denied/);
  });
});

describe('leaderboard', () => {
  it('counts this month’s approvals by underwriter and by RM', async () => {
    const approved = apps.filter((a) => inMonth(a.approved, thisMonth));
    const uw = await json('/api/leaderboardUW');
    expect(
      Object.fromEntries(uw.map((r: { Name: string; Approved: number }) => [r.Name, r.Approved])),
    ).toEqual(
      tally(
        approved.filter((a) => a.underwriter),
        (a) => a.underwriter as string,
      ),
    );
    const rm = await json('/api/leaderboardRM');
    expect(
      Object.fromEntries(rm.map((r: { Name: string; Approved: number }) => [r.Name, r.Approved])),
    ).toEqual(
      tally(
        approved.filter((a) => a.rm),
        (a) => a.rm as string,
      ),
    );
  });
});

describe('ISO partners', () => {
  const ranges = () => ({
    today,
    this_month_start: thisMonth,
    this_month_end: lastDayOfMonth(thisMonth),
    last_month_start: lastMonth,
    last_month_end: lastDayOfMonth(lastMonth),
    this_year_start: `${today.slice(0, 4)}-01-01`,
    this_year_end: `${today.slice(0, 4)}-12-31`,
    last_year_start: `${Number(today.slice(0, 4)) - 1}-01-01`,
    last_year_end: `${Number(today.slice(0, 4)) - 1}-12-31`,
  });

  it('GetPartners counts approvals per ISO for each range', async () => {
    const rows = await json('/api/iso/GetPartners', ranges());
    const year = today.slice(0, 4);
    for (const r of rows.slice(0, 10)) {
      const mine = apps.filter((a) => a.iso === r.partner);
      expect(r.approvals_this_month).toBe(mine.filter((a) => inMonth(a.approved, thisMonth)).length);
      expect(r.approvals_last_month).toBe(mine.filter((a) => inMonth(a.approved, lastMonth)).length);
      expect(r.approvals_this_year).toBe(mine.filter((a) => a.approved?.startsWith(year)).length);
      expect(r.approvals_last_year).toBe(
        mine.filter((a) => a.approved?.startsWith(String(Number(year) - 1))).length,
      );
      const latest = mine
        .map((a) => a.submitted)
        .sort()
        .at(-1) as string;
      expect(r.days_since_last_app).toBe(Math.round((Date.parse(today) - Date.parse(latest)) / 86_400_000));
    }
    const bad = await admin.post('/api/iso/GetPartners', { ...ranges(), this_month_start: '2030-01-01' });
    expect(bad.statusCode).toBe(400);
  });

  it('GetPartnersStatus: Active this month, InActive within 90 days, Dead otherwise', async () => {
    const end = today;
    const start = day(new Date(Date.parse(`${today}T00:00:00Z`) - 90 * 86_400_000));
    const rows = await json('/api/iso/GetPartnersStatus', {
      this_month_start: thisMonth,
      this_month_end: lastDayOfMonth(thisMonth),
      last_90D_start: start,
      last_90D_end: end,
    });
    for (const r of rows) {
      const mine = apps.filter((a) => a.iso === r.iso_name);
      const thisM = mine.filter((a) => inMonth(a.approved, thisMonth)).length;
      const last90 = mine.filter(
        (a) => a.approved !== null && a.approved >= start && a.approved <= end,
      ).length;
      expect(r.iso_status, r.iso_name).toBe(isoStatus(thisM, last90));
      // The date shown with the status is the latest approval the rule looked at, not the latest application.
      const latestApproval =
        mine
          .map((a) => a.approved)
          .filter((d): d is string => d !== null && d <= lastDayOfMonth(thisMonth))
          .sort()
          .at(-1) ?? null;
      expect(r.latest_approval_date, r.iso_name).toBe(latestApproval);
      if (r.iso_status === 'Dead') expect(latestApproval === null || latestApproval < start).toBe(true);
      if (r.iso_status === 'Active') expect(latestApproval && latestApproval >= thisMonth).toBeTruthy();
    }
    expect(new Set(rows.map((r: { iso_status: string }) => r.iso_status)).size).toBeGreaterThan(1);
  });

  it('the performance table sorts by approvals this year by default, filters ranges and refuses bad ones', async () => {
    const page = await json('/api/iso/partners/query', { month: thisMonth, pageSize: 15 });
    const ys = page.rows.map((r: { approvals_this_year: number }) => r.approvals_this_year);
    expect(ys).toEqual([...ys].sort((a, b) => b - a));
    const filtered = await json('/api/iso/partners/query', {
      month: thisMonth,
      pageSize: 1000,
      filters: [{ id: 'approvals_this_year', kind: 'range', min: 1, max: 10 }],
    });
    expect(
      filtered.rows.every(
        (r: { approvals_this_year: number }) => r.approvals_this_year >= 1 && r.approvals_this_year <= 10,
      ),
    ).toBe(true);
    // Every ISO of the directory, every field, as GetPartners answers it for the month's ranges; with an ISO that
    // has no manager, no signing date and no application, so the nulls are read back too, and a name with the
    // characters an array literal quotes.
    const odd = 'Zz "Quoted", {Braced} \\ NULL ISO';
    await sql`insert into partners (account_id, account_name) values ('TEST-EMPTY', ${odd})`.execute(t.db);
    try {
      const directory = (await json('/api/iso/GetPartners', ranges())) as Record<string, unknown>[];
      const all = await json('/api/iso/partners/query', { month: thisMonth, pageSize: 1000 });
      expect(all.total).toBe(directory.length);
      const inTable = new Map(all.rows.map((r: Record<string, unknown>) => [r.partner, r]));
      for (const row of directory) expect(inTable.get(row.partner), String(row.partner)).toEqual(row);
      expect(inTable.get(odd)).toMatchObject({
        date_signed: null,
        rm: null,
        days_since_last_app: null,
        approvals_this_year: 0,
      });
      expect(Number(all.totals.approvals_this_year)).toBe(
        directory.reduce((sum, r) => sum + (r.approvals_this_year as number), 0),
      );
    } finally {
      await sql`delete from partners where account_id = 'TEST-EMPTY'`.execute(t.db);
    }
    const bad = await admin.post('/api/iso/partners/query', {
      month: thisMonth,
      filters: [{ id: 'approvals_this_year', kind: 'range', min: 5, max: 1 }],
    });
    expect(bad.statusCode).toBe(400);
    const file = await admin.post('/api/iso/partners/export', {
      month: thisMonth,
      columns: ['partner', 'approvals_this_year'],
    });
    expect(file.statusCode).toBe(200);
  });

  it('sends every field of the directory answers as the schemas do, and follows an approval at once', async () => {
    const body = ranges();
    const statusBody = {
      this_month_start: thisMonth,
      this_month_end: lastDayOfMonth(thisMonth),
      last_90D_start: addMonths(thisMonth, -3),
      last_90D_end: today,
    };
    // The answers are sent as kept JSON text: parsed by the endpoints' schemas, nothing is stripped or refused.
    const directory = await json('/api/iso/GetPartners', body);
    expect(isoEndpoints.partners.output.parse(directory)).toEqual(directory);
    const statuses = await json('/api/iso/GetPartnersStatus', statusBody);
    expect(isoEndpoints.partnersStatus.output.parse(statuses)).toEqual(statuses);
    // An application of the last-ranked ISO approved now: every answer counts it on the next call.
    const last = directory.at(-1) as { partner: string; approvals_this_month: number };
    const { rows } = await sql<{ id: number; approved_at: Date | null; status: string }>`
      select a.id, a.approved_at, a.status from applications a join partners p on p.id = a.partner_id
      where p.account_name = ${last.partner} and (a.approved_at is null or a.approved_at < ${thisMonth}::date)
      order by a.id limit 1`.execute(t.db);
    const app = rows[0];
    if (!app) throw new Error('no application to approve');
    await sql`update applications set approved_at = now(), status = 'Approved' where id = ${app.id}`.execute(
      t.db,
    );
    try {
      const after = (await json('/api/iso/GetPartners', body)) as {
        partner: string;
        approvals_this_month: number;
      }[];
      expect(after.find((r) => r.partner === last.partner)?.approvals_this_month).toBe(
        last.approvals_this_month + 1,
      );
      const page = await json('/api/iso/partners/query', {
        month: thisMonth,
        filters: [{ id: 'partner', kind: 'text', value: last.partner }],
      });
      expect(
        page.rows.find((r: { partner: string }) => r.partner === last.partner)?.approvals_this_month,
      ).toBe(last.approvals_this_month + 1);
      const status = (await json('/api/iso/GetPartnersStatus', statusBody)) as {
        iso_name: string;
        iso_status: string;
      }[];
      expect(status.find((r) => r.iso_name === last.partner)?.iso_status).toBe('Active');
    } finally {
      await sql`update applications set approved_at = ${app.approved_at}, status = ${app.status}
        where id = ${app.id}`.execute(t.db);
    }
  });
});
