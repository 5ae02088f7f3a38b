import {
  ACH_STALE_EDIT_MESSAGE,
  achAlert,
  achClassification,
  add,
  type ClassifiedRow,
  type Money,
  money,
  parseMoney,
  rejectionBalance,
  toDecimalString,
} from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAchIfMissing } from '../src/db/seed/ach';
import { Client, type TestApp, testApp } from './helpers';

/**
 * ACH returns through the API. Expected figures come from the raw rows: plain SQL over ach_returns,
 * ach_debit_entries and merchants, and the spec's rules (domain) applied row by row in the test, never from
 * the columns the server keeps.
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
const ADMIN = 'admin@paydesk.local';
const FINANCE = 'finance@paydesk.local';
const SALES = 'sales@paydesk.local';
const PARTNER = 'partner@summitpayments.example';
const SUMMIT = 'Summit Payment Group';

interface RawRow extends ClassifiedRow {
  id: number;
  historic: number;
  partner_id: number;
  legal_name: string;
  mid: string;
  transaction_amount: string;
  used_rsv: string | null;
  re_ran: string | null;
  sent_to_coll: string | null;
  write_off: string | null;
  rsv_balance: string | null;
  version: number;
}

async function rawRows(where = sql`true`): Promise<RawRow[]> {
  const { rows } = await sql<RawRow>`select id, historic, partner_id, legal_name, mid, transaction_amount,
      used_rsv, re_ran, sent_to_coll, write_off, rsv_balance, version,
      addenda_related as "AddendaRelated", transaction_amount as "TransactionAmount",
      merchant_status as "MerchantStatus", rej_res as "rejRes", write_off as "writeOff",
      sent_to_coll as "sentToColl"
    from ach_returns where ${where} order by id`.execute(t.db);
  return rows;
}

/** The spec's derived columns of every row, computed here from the raw rows. */
async function expectedDerived() {
  const rows = await rawRows();
  const { rows: mids } = await sql<{ partner_id: number; legal_name: string; n: number }>`
    select partner_id, legal_name, count(*)::int as n from merchants group by partner_id, legal_name`.execute(
    t.db,
  );
  const midCount = new Map(mids.map((m) => [`${m.partner_id}|${m.legal_name}`, m.n]));
  const balance = new Map<string, Money>();
  for (const r of rows) {
    const k = `${r.partner_id}|${r.legal_name}`;
    balance.set(
      k,
      add(
        balance.get(k) ?? money(0),
        rejectionBalance({
          TransactionAmount: r.transaction_amount,
          usedRsv: r.used_rsv,
          reRan: r.re_ran,
          sentToColl: r.sent_to_coll,
          writeOff: r.write_off,
        }),
      ),
    );
  }
  return new Map(
    rows.map((r) => {
      const k = `${r.partner_id}|${r.legal_name}`;
      const merchRejBal = balance.get(k) ?? money(0);
      return [
        r.id,
        {
          classification: achClassification(r),
          merchRejBal,
          alert: achAlert({
            merchRejBal: toDecimalString(merchRejBal),
            rsvBalance: r.rsv_balance,
            legalNameMids: midCount.get(k) ?? 0,
          })
            ? 'Yes'
            : 'No',
        },
      ];
    }),
  );
}

/** The whole table's count and money totals (or one ISO's), by plain SQL. */
async function plainTotals(partnerId?: number) {
  const where = partnerId === undefined ? sql`true` : sql`partner_id = ${partnerId}`;
  const { rows } = await sql<Record<string, string | number>>`select count(*)::int as n,
      coalesce(sum(transaction_amount), 0)::text as "TransactionAmount", coalesce(sum(used_rsv), 0)::text as "usedRsv",
      coalesce(sum(re_ran), 0)::text as "reRan", coalesce(sum(sent_to_coll), 0)::text as "sentToColl",
      coalesce(sum(write_off), 0)::text as "writeOff"
    from ach_returns where ${where}`.execute(t.db);
  const { n, ...totals } = rows[0] ?? {};
  return {
    n,
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, parseMoney(String(v))])),
  };
}

/** The count and totals of an unfiltered page, in the same shape. */
async function pageTotals(who: string) {
  const body = (await (await as(who)).post('/api/app/ach/query', {})).json();
  return {
    n: body.total,
    totals: Object.fromEntries(Object.entries(body.totals).map(([k, v]) => [k, parseMoney(String(v))])),
  };
}

async function countOf(where: ReturnType<typeof sql>) {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from ach_returns r where ${where}`.execute(t.db);
  return rows[0]?.n ?? 0;
}

async function rowState(id: number) {
  const { rows } = await sql<Record<string, unknown>>`select r.*,
      (select count(*)::int from ach_history h where h.ach_return_id = r.id) as history
    from ach_returns r where id = ${id}`.execute(t.db);
  return rows[0];
}

async function summitId() {
  const { rows } = await sql<{ id: number }>`select id from partners where account_name = ${SUMMIT}`.execute(
    t.db,
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no Summit Payment Group');
  return id;
}

/** Every ACH row's content but its key, in a stable order: the same seed and day must give the same text. */
async function fingerprint() {
  const { rows } = await sql<{
    returns: string;
    entries: string;
    reserves: string;
    rates: string;
    isoRates: string;
  }>`select
    (select md5(string_agg(x, '|' order by x)) from (select (to_jsonb(r) - 'id')::text as x from ach_returns r) a) as returns,
    (select md5(string_agg(x, '|' order by x)) from (select to_jsonb(e)::text as x from ach_debit_entries e) a) as entries,
    (select md5(string_agg(x, '|' order by x)) from (select to_jsonb(v)::text as x from ach_reserves v) a) as reserves,
    (select md5(string_agg(x, '|' order by x)) from (select to_jsonb(w)::text as x from ach_rate_window w) a) as rates,
    (select md5(string_agg(x, '|' order by x)) from (select to_jsonb(w)::text as x from ach_rate_window_iso w) a) as "isoRates"`.execute(
    t.db,
  );
  return rows[0];
}

let seeded: Awaited<ReturnType<typeof fingerprint>>;

beforeAll(async () => {
  t = await testApp();
  seeded = await fingerprint();
});
afterAll(async () => {
  await t?.close();
});

describe('the demo data', () => {
  it('has returned debits of demo merchants with realistic codes, NOCs at 0, historic rows and debit entries', async () => {
    const { rows } = await sql<{ code: string; n: number }>`
      select addenda_related as code, count(*)::int as n from ach_returns group by 1 order by 2 desc`.execute(
      t.db,
    );
    expect(rows[0]?.code).toBe('R01');
    expect(rows.slice(1, 4).map((r) => r.code)).toContain('R02');
    expect(await countOf(sql`addenda_related like 'C%'`)).toBeGreaterThan(0);
    expect(await countOf(sql`addenda_related like 'C%' and transaction_amount <> 0`)).toBe(0);
    expect(await countOf(sql`historic = 1`)).toBeGreaterThan(0);
    // Every row is a real merchant's, with its MID, legal name and ISO.
    expect(
      await countOf(sql`not exists (select 1 from merchants m join partners p on p.id = m.partner_id
        where m.id = r.merchant_id and m.mid = r.mid and m.legal_name = r.legal_name and m.partner_id = r.partner_id
          and p.account_name = r.iso_name)`),
    ).toBe(0);
    const { rows: entries } = await sql<{
      n: number;
    }>`select count(*)::int as n from ach_debit_entries`.execute(t.db);
    expect(entries[0]?.n).toBeGreaterThan(0);
  });

  it('never returns more debits of a merchant-day than were originated that day', async () => {
    const { rows } = await sql<{ n: number; checked: number }>`
      with returned as (
        select merchant_id, effective_entry_date as day, count(*) as n from ach_returns
        where effective_entry_date >= (select min(day) from ach_debit_entries)
        group by 1, 2)
      select count(*) filter (where e.entries is null or r.n > e.entries)::int as n, count(*)::int as checked
      from returned r left join ach_debit_entries e on e.merchant_id = r.merchant_id and e.day = r.day`.execute(
      t.db,
    );
    expect(rows[0]?.checked).toBeGreaterThan(0);
    expect(rows[0]?.n).toBe(0);
  });
});

describe('the ACH table', () => {
  const query = async (body: Record<string, unknown>, who = ADMIN) =>
    (await as(who)).post('/api/app/ach/query', body);

  it('pages every row with the derived columns the spec defines', async () => {
    const expected = await expectedDerived();
    const seen = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await query({ page, pageSize: 500 });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      for (const row of body.rows) {
        const want = expected.get(row.main_unique_key);
        expect(want, `row ${row.main_unique_key}`).toBeDefined();
        expect(row.classification, `row ${row.main_unique_key}`).toBe(want?.classification);
        expect(parseMoney(row.merchRejBal), `row ${row.main_unique_key}`).toBe(want?.merchRejBal);
        expect(row.Alert, `row ${row.main_unique_key}`).toBe(want?.alert);
        seen.add(row.main_unique_key);
      }
      if (page * 500 >= body.total) break;
    }
    expect(seen.size).toBe(expected.size);
    const classes = new Set([...expected.values()].map((v) => v.classification));
    expect(classes).toEqual(new Set(['NOC', 'resurrect', 'unresolved', 'reject closed']));
    expect([...expected.values()].some((v) => v.alert === 'Yes')).toBe(true);
  });

  it('filters and sorts by the derived columns on the server', async () => {
    const expected = await expectedDerived();
    for (const cls of ['NOC', 'resurrect', 'unresolved', 'reject closed']) {
      const res = await query({ filters: [{ id: 'classification', kind: 'select', values: [cls] }] });
      expect(res.json().total, cls).toBe(
        [...expected.values()].filter((v) => v.classification === cls).length,
      );
      for (const row of res.json().rows) expect(row.classification).toBe(cls);
    }
    const alerts = await query({ filters: [{ id: 'Alert', kind: 'select', values: ['Yes'] }] });
    expect(alerts.json().total).toBe([...expected.values()].filter((v) => v.alert === 'Yes').length);

    const lowest = [...expected.values()].reduce((m, v) => (v.merchRejBal < m ? v.merchRejBal : m), 0n);
    const sorted = await query({ sort: [{ id: 'merchRejBal', desc: false }] });
    expect(parseMoney(sorted.json().rows[0].merchRejBal)).toBe(lowest);
    const range = await query({ filters: [{ id: 'merchRejBal', kind: 'range', min: null, max: -1000 }] });
    const inRange = [...expected.entries()].filter(([, v]) => v.merchRejBal <= -100_000n).map(([id]) => id);
    expect(range.json().total).toBe(inRange.length);
    // The count and totals of a balance-only filter come from the legal names' rollup: the same as the rows'.
    const { rows: sums } = await sql<Record<string, string>>`select
        coalesce(sum(transaction_amount), 0)::text as "TransactionAmount", coalesce(sum(used_rsv), 0)::text as "usedRsv",
        coalesce(sum(re_ran), 0)::text as "reRan", coalesce(sum(sent_to_coll), 0)::text as "sentToColl",
        coalesce(sum(write_off), 0)::text as "writeOff"
      from ach_returns where id in (${sql.join(inRange.length > 0 ? inRange : [0])})`.execute(t.db);
    for (const [id, want] of Object.entries(sums[0] ?? {}))
      expect(parseMoney(range.json().totals[id]), id).toBe(parseMoney(want));
    for (const row of range.json().rows) expect(parseMoney(row.merchRejBal)).toBeLessThanOrEqual(-100_000n);
  });

  it('pages a balance filter in the table order, with other filters and within an ISO', async () => {
    // The balance test of each row runs in the returns' own order (tableQuery.ts, lookup.exists): every page must
    // hold exactly the rows the raw rows put there, by the balance this test computes.
    const expected = await expectedDerived();
    const { rows: dated } = await sql<{ id: number; day: string | null; partner_id: number }>`
      select id, file_creation_date::text as day, partner_id from ach_returns`.execute(t.db);
    const inOrder = dated.sort(
      (a, b) =>
        (a.day === null ? 1 : 0) - (b.day === null ? 1 : 0) ||
        (b.day ?? '').localeCompare(a.day ?? '') ||
        b.id - a.id,
    );
    const summit = await summitId();
    const cases: [string, Record<string, unknown>[], (id: number) => boolean, string][] = [
      [
        'balance ≤ −1,000',
        [{ id: 'merchRejBal', kind: 'range', min: null, max: -1000 }],
        (id) => (expected.get(id)?.merchRejBal ?? 0n) <= -100_000n,
        ADMIN,
      ],
      [
        'balance −5,000 to 0 and unresolved',
        [
          { id: 'merchRejBal', kind: 'range', min: -5000, max: 0 },
          { id: 'classification', kind: 'select', values: ['unresolved'] },
        ],
        (id) => {
          const want = expected.get(id);
          return (
            want !== undefined &&
            want.merchRejBal >= -500_000n &&
            want.merchRejBal <= 0n &&
            want.classification === 'unresolved'
          );
        },
        ADMIN,
      ],
      [
        'balance ≤ 0, partner staff',
        [{ id: 'merchRejBal', kind: 'range', min: null, max: 0 }],
        (id) =>
          (expected.get(id)?.merchRejBal ?? 0n) <= 0n &&
          dated.find((d) => d.id === id)?.partner_id === summit,
        PARTNER,
      ],
    ];
    for (const [name, filters, matches, who] of cases) {
      const want = inOrder.filter((r) => matches(r.id)).map((r) => r.id);
      expect(want.length, name).toBeGreaterThan(50);
      for (const page of [1, 2, Math.ceil(want.length / 25)]) {
        const res = await query({ filters, page, pageSize: 25 }, who);
        expect(res.statusCode, name).toBe(200);
        expect(res.json().total, name).toBe(want.length);
        expect(
          res.json().rows.map((r: { main_unique_key: number }) => r.main_unique_key),
          `${name}, page ${page}`,
        ).toEqual(want.slice((page - 1) * 25, page * 25));
      }
    }
  });

  it('answers filtered pages, orders and totals as plain SQL does', async () => {
    const res = await query({
      filters: [
        { id: 'AddendaRelated', kind: 'select', values: ['R01', 'R10'] },
        { id: 'FileCreationDATE', kind: 'dateRange', from: '2025-01-01', to: null },
      ],
      sort: [{ id: 'TransactionAmount', desc: true }],
      pageSize: 50,
    });
    expect(res.statusCode).toBe(200);
    const where = sql`addenda_related in ('R01', 'R10') and file_creation_date >= '2025-01-01'`;
    const { rows } = await sql<{ id: number }>`select id from ach_returns where ${where}
      order by transaction_amount desc, id desc limit 50`.execute(t.db);
    const { rows: agg } = await sql<{ n: number; total: string }>`select count(*)::int as n,
      sum(transaction_amount)::text as total from ach_returns where ${where}`.execute(t.db);
    const body = res.json();
    expect(body.rows.map((r: { main_unique_key: number }) => r.main_unique_key)).toEqual(
      rows.map((r) => r.id),
    );
    expect(body.total).toBe(agg[0]?.n);
    expect(parseMoney(body.totals.TransactionAmount)).toBe(parseMoney(agg[0]?.total ?? '0'));

    // Staff count a code and date filter by code-day (ach_code_days), partner staff their own ISO's returns:
    // every total as plain SQL sums the rows, for each code alone, a date range and both together.
    const summit = await summitId();
    type CodeOrDay =
      | { id: 'AddendaRelated'; kind: 'select'; values: string[] }
      | { id: 'FileCreationDATE'; kind: 'dateRange'; from: string | null; to: string | null };
    const cases: CodeOrDay[][] = [
      [{ id: 'AddendaRelated', kind: 'select', values: ['R01'] }],
      [{ id: 'FileCreationDATE', kind: 'dateRange', from: '2025-03-01', to: '2025-09-30' }],
      [
        { id: 'AddendaRelated', kind: 'select', values: ['R01', 'R10', 'R03'] },
        { id: 'FileCreationDATE', kind: 'dateRange', from: null, to: '2025-12-31' },
      ],
    ];
    for (const filters of cases) {
      const codes = filters.flatMap((f) => (f.kind === 'select' ? [f.values] : []))[0];
      const range = filters.flatMap((f) => (f.kind === 'dateRange' ? [f] : []))[0];
      for (const [who, partner] of [
        [ADMIN, undefined],
        [PARTNER, summit],
      ] as const) {
        const { rows: want } = await sql<Record<string, string | number>>`select count(*)::int as n,
            coalesce(sum(transaction_amount), 0)::text as "TransactionAmount",
            coalesce(sum(used_rsv), 0)::text as "usedRsv", coalesce(sum(re_ran), 0)::text as "reRan",
            coalesce(sum(sent_to_coll), 0)::text as "sentToColl", coalesce(sum(write_off), 0)::text as "writeOff"
          from ach_returns
          where ${codes ? sql`addenda_related in (${sql.join(codes)})` : sql`true`}
            and ${range?.from ? sql`file_creation_date >= ${range.from}::date` : sql`true`}
            and ${range?.to ? sql`file_creation_date <= ${range.to}::date` : sql`true`}
            and ${partner === undefined ? sql`true` : sql`partner_id = ${partner}`}`.execute(t.db);
        const res = await query({ filters }, who);
        expect(res.statusCode, who).toBe(200);
        const { n: wantN, ...wantTotals } = want[0] ?? {};
        expect(wantN, who).toBeGreaterThan(0);
        expect(res.json().total, `${who} ${JSON.stringify(filters)}`).toBe(wantN);
        for (const [id, v] of Object.entries(wantTotals))
          expect(parseMoney(res.json().totals[id]), `${who} ${id}`).toBe(parseMoney(String(v)));
      }
    }

    const byDba = await query({ search: 'lo' });
    const { rows: n } = await sql<{ n: number }>`select count(*)::int as n from ach_returns
      where lower(mid) like 'lo%' or lower(dba_name) like 'lo%' or lower(legal_name) like 'lo%'`.execute(
      t.db,
    );
    expect(byDba.json().total).toBe(n[0]?.n);

    // An ISO-name-only filter counts and sums the ISOs' kept totals: the same as the rows'.
    const { rows: isos } = await sql<{
      prefix: string;
    }>`select lower(left(iso_name, 3)) as prefix from ach_returns
      where iso_name is not null group by 1 order by count(*) desc limit 1`.execute(t.db);
    const prefix = isos[0]?.prefix ?? '';
    const byIso = await query({
      filters: [{ id: 'GroupLevel1Name', kind: 'text', value: prefix.toUpperCase() }],
    });
    const { rows: isoAgg } = await sql<Record<string, string | number>>`select count(*)::int as n,
        coalesce(sum(transaction_amount), 0)::text as "TransactionAmount", coalesce(sum(used_rsv), 0)::text as "usedRsv",
        coalesce(sum(re_ran), 0)::text as "reRan", coalesce(sum(sent_to_coll), 0)::text as "sentToColl",
        coalesce(sum(write_off), 0)::text as "writeOff"
      from ach_returns where lower(iso_name) like ${`${prefix}%`}`.execute(t.db);
    const { n: isoN, ...isoTotals } = isoAgg[0] ?? {};
    expect(isoN).toBeGreaterThan(0);
    expect(byIso.json().total).toBe(isoN);
    for (const [id, want] of Object.entries(isoTotals))
      expect(parseMoney(byIso.json().totals[id]), id).toBe(parseMoney(String(want)));
  });

  it('finds a search’s returns by MID, DBA or legal name, each once, in the order asked, as one condition does', async () => {
    // A prefix that starts both the DBA and the legal name of some returns: those match twice and must count once.
    // Chosen among the partner's unresolved returns of this year, so every filter below finds some for both users
    // whatever the day (the demo's returns are dated from today).
    const summit = await summitId();
    const { rows: prefixes } = await sql<{ p: string; both: number }>`
      select lower(left(legal_name, 2)) as p, count(*)::int as both from ach_returns
      where lower(left(dba_name, 2)) = lower(left(legal_name, 2)) and partner_id = ${summit}
        and classification = 'unresolved' and file_creation_date >= '2026-01-01'
      group by 1 order by 2 desc, 1 limit 1`.execute(t.db);
    const prefix = prefixes[0]?.p ?? '';
    expect(prefixes[0]?.both).toBeGreaterThan(0);
    const orders: [Record<string, unknown>[], string][] = [
      [[], 'file_creation_date desc, id desc'],
      [[{ id: 'DBAName', desc: false }], 'dba_name asc nulls last, id desc'],
      [[{ id: 'TransactionAmount', desc: true }], 'transaction_amount desc nulls last, id desc'],
      // A lookup column: the toolkit's usual path, checked the same way.
      [[{ id: 'merchRejBal', desc: false }], 'ln.merch_rej_bal asc nulls last, id desc'],
    ];
    const filters = [
      [],
      [{ id: 'classification', kind: 'select', values: ['unresolved'] }],
      [{ id: 'FileCreationDATE', kind: 'dateRange', from: '2026-01-01', to: null }],
    ];
    for (const [who, partner] of [
      [ADMIN, undefined],
      [PARTNER, summit],
    ] as const) {
      for (const [f, filter] of filters.entries()) {
        const where = sql`(lower(r.mid) like ${`${prefix}%`} or lower(r.dba_name) like ${`${prefix}%`}
            or lower(r.legal_name) like ${`${prefix}%`})
          and ${f === 1 ? sql`r.classification = 'unresolved'` : f === 2 ? sql`r.file_creation_date >= '2026-01-01'` : sql`true`}
          and ${partner === undefined ? sql`true` : sql`r.partner_id = ${partner}`}`;
        const { rows: agg } = await sql<Record<string, string | number>>`select count(*)::int as n,
            coalesce(sum(transaction_amount), 0)::text as "TransactionAmount",
            coalesce(sum(used_rsv), 0)::text as "usedRsv", coalesce(sum(re_ran), 0)::text as "reRan",
            coalesce(sum(sent_to_coll), 0)::text as "sentToColl", coalesce(sum(write_off), 0)::text as "writeOff"
          from ach_returns r where ${where}`.execute(t.db);
        const { n: wantN, ...wantTotals } = agg[0] ?? {};
        const label = `${who} ${prefix} filter ${f}`;
        expect(wantN, label).toBeGreaterThan(0);
        for (const [sort, order] of orders) {
          const { rows: want } = await sql<{ id: number }>`select r.id from ach_returns r
            join ach_legal_names ln on ln.partner_id = r.partner_id and ln.legal_name = r.legal_name
            where ${where} order by ${sql.raw(order.replace(/(^|, )(?!ln\.)/g, '$1r.'))}`.execute(t.db);
          const got: number[] = [];
          for (let page = 1; got.length < want.length; page++) {
            // The search as a user types it: capitals and spaces around it.
            const res = await query(
              { search: ` ${prefix.toUpperCase()} `, filters: filter, sort, page, pageSize: 25 },
              who,
            );
            expect(res.statusCode, label).toBe(200);
            const body = res.json();
            expect(body.total, `${label} ${order}`).toBe(wantN);
            for (const [id, v] of Object.entries(wantTotals))
              expect(parseMoney(body.totals[id]), `${label} ${id}`).toBe(parseMoney(String(v)));
            if (body.rows.length === 0) break;
            got.push(...body.rows.map((r: { main_unique_key: number }) => r.main_unique_key));
          }
          expect(got, `${label} ${order}`).toEqual(want.map((r) => r.id));
          // A page past the last: no rows, and still the search's count and totals.
          const past = await query(
            { search: prefix, filters: filter, sort, page: Math.ceil(Number(wantN) / 25) + 2, pageSize: 25 },
            who,
          );
          expect(past.json().rows, `${label} past the last page`).toEqual([]);
          expect(past.json().total, `${label} past the last page`).toBe(wantN);
          for (const [id, v] of Object.entries(wantTotals))
            expect(parseMoney(past.json().totals[id]), `${label} ${id}`).toBe(parseMoney(String(v)));
        }
      }
    }
    // The search's wildcards are plain characters: nothing starts with them.
    for (const search of ['%', '_', `${prefix}%`]) {
      const res = await query({ search });
      expect(res.statusCode, search).toBe(200);
      expect(res.json().total, search).toBe(0);
      expect(res.json().rows, search).toEqual([]);
    }
  });

  it('answers the whole table’s count and totals as plain SQL does', async () => {
    expect(await pageTotals(ADMIN)).toEqual(await plainTotals());
  });

  it('accepts only the columns, values and page sizes of its definition', async () => {
    const bad = [
      { filters: [{ id: 'merch_rej_bal', kind: 'range', min: 0, max: null }] },
      { filters: [{ id: 'row_balance', kind: 'range', min: 0, max: null }] },
      { filters: [{ id: 'AddendaRelated', kind: 'select', values: ['R99'] }] },
      { filters: [{ id: 'classification', kind: 'select', values: ['closed'] }] },
      { filters: [{ id: 'TransactionAmount', kind: 'text', value: '1' }] },
      { sort: [{ id: 'partner_id', desc: false }] },
      { sort: [{ id: 'r.id; drop table ach_returns', desc: false }] },
      { pageSize: 30 },
    ];
    for (const body of bad) {
      const res = await query(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const exp = await (await as(ADMIN)).post('/api/app/ach/export', { columns: ['partner_id'] });
    expect(exp.statusCode).toBe(400);
  });

  it('exports every filtered row in the visible columns', async () => {
    const res = await (await as(ADMIN)).post('/api/app/ach/export', {
      columns: ['IndividualIdentificationNumber', 'classification', 'merchRejBal', 'Alert'],
      filters: [{ id: 'classification', kind: 'select', values: ['unresolved'] }],
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'MID', 'Class', 'Merch. rej. balance', 'Alert']);
    const expected = [...(await expectedDerived()).values()].filter((v) => v.classification === 'unresolved');
    expect((sheet?.actualRowCount ?? 0) - 1).toBe(expected.length);
  });
});

describe('/api/ach', () => {
  it('answers the newest rejects, their reserves and their occurrence', async () => {
    const res = await (await as(ADMIN)).post('/api/ach', {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const total = await countOf(sql`true`);
    expect(body.rejects.length).toBe(Math.min(total, 5000));
    expect(body.truncated).toBe(total > 5000);
    const { rows: newest } = await sql<{ id: number }>`select id from ach_returns
      order by file_creation_date desc, id desc limit 5`.execute(t.db);
    expect(body.rejects.slice(0, 5).map((r: { main_unique_key: number }) => r.main_unique_key)).toEqual(
      newest.map((r) => r.id),
    );
    const mids = [
      ...new Set(
        body.rejects.map((r: { IndividualIdentificationNumber: string }) => r.IndividualIdentificationNumber),
      ),
    ];
    const { rows: occ } = await sql<{
      mid: string;
      n: number;
    }>`select mid, count(*)::int as n from ach_returns
      where addenda_related ~ '^R' group by mid`.execute(t.db);
    const occurrence = new Map(occ.map((o) => [o.mid, o.n]));
    for (const o of body.occurrence)
      expect(o.occurrence, o.IndividualIdentificationNumber).toBe(
        occurrence.get(o.IndividualIdentificationNumber),
      );
    expect(body.occurrence.length).toBe(mids.filter((m) => occurrence.has(m as string)).length);
    const { rows: rsv } = await sql<{
      mid: string;
      rsv_balance: string;
    }>`select mid, rsv_balance::text from ach_reserves`.execute(t.db);
    const reserve = new Map(rsv.map((r) => [r.mid, r.rsv_balance]));
    expect(body.reserves.length).toBe(mids.filter((m) => reserve.has(m as string)).length);
    for (const r of body.reserves) expect(r.rsvBalance).toBe(reserve.get(r.IndividualIdentificationNumber));
  });
});

describe('/api/updateACH', () => {
  /** A live, unresolved row of an Active merchant whose legal name has other rows. */
  async function pickRow(offset = 0) {
    const { rows } = await sql<{ id: number; version: number; partner_id: number; legal_name: string }>`
      select r.id, r.version, r.partner_id, r.legal_name from ach_returns r
      where historic = 0 and rej_res is null and merchant_status = 'Active' and addenda_related like 'R%'
        and (select count(*) from ach_returns s where s.partner_id = r.partner_id and s.legal_name = r.legal_name) > 1
        and used_rsv is null and write_off is null and comment is null
      order by id limit 1 offset ${offset}`.execute(t.db);
    const row = rows[0];
    if (!row) throw new Error('no row to edit');
    return row;
  }
  const edit = async (who: string, body: Record<string, unknown>) =>
    (await as(who)).post('/api/updateACH', body);

  it('saves each kind of editable column, sets workedBy and datetimeWorked, and keeps every change', async () => {
    const row = await pickRow(0);
    const before = Date.now();
    const steps: [string, unknown, unknown][] = [
      ['comment', '  Called the owner ', 'Called the owner'],
      ['usedRsv', '$1,250.5', '1250.50'],
      ['reRan', 10, '10.00'],
      ['sentToColl', '0.99', '0.99'],
      ['writeOff', '2', '2.00'],
      ['rejRes', 'Used Reserve - PARTIAL', 'Used Reserve - PARTIAL'],
      ['resDate', '2026-11-05', '2026-11-05'],
      ['usedRsvDate', '2026-11-04T10:00:00Z', '2026-11-04'],
      ['reRanDate', '2026-11-03', '2026-11-03'],
    ];
    let version = row.version;
    for (const [column, value, stored] of steps) {
      const res = await edit(FINANCE, { unique_key: row.id, column, value, historic: 0, version });
      expect(res.statusCode, `${column}: ${res.body}`).toBe(200);
      const answer = res.json().row;
      expect(answer[column]).toBe(stored);
      expect(answer.workedBy).toBe(FINANCE);
      expect(new Date(answer.datetimeWorked).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(answer.version).toBe(version + 1);
      version = answer.version;
    }
    const state = await rowState(row.id);
    expect(state?.comment).toBe('Called the owner');
    expect(state?.used_rsv).toBe('1250.50');
    expect(state?.rej_res).toBe('Used Reserve - PARTIAL');
    expect(state?.worked_by).toBe(FINANCE);
    // PARTIAL with money sent to collections or written off is a resurrect (spec §4).
    expect(state?.classification).toBe('resurrect');

    const history = await (await as(ADMIN)).post('/api/app/ach/history', { unique_key: row.id, historic: 0 });
    expect(history.statusCode).toBe(200);
    const changes = history.json();
    expect(changes.map((c: { column: string }) => c.column)).toEqual(steps.map(([c]) => c).reverse());
    expect(changes.at(-1)).toMatchObject({
      column: 'comment',
      oldValue: null,
      newValue: 'Called the owner',
      changedBy: FINANCE,
    });
    expect(changes[0]).toMatchObject({ column: 'reRanDate', oldValue: null, newValue: '2026-11-03' });

    // Clearing a cell is a change too.
    const cleared = await edit(FINANCE, {
      unique_key: row.id,
      column: 'comment',
      value: '',
      historic: 0,
      version,
    });
    expect(cleared.json().row.comment).toBeNull();
    const again = await (await as(ADMIN)).post('/api/app/ach/history', { unique_key: row.id, historic: 0 });
    expect(again.json()[0]).toMatchObject({
      column: 'comment',
      oldValue: 'Called the owner',
      newValue: null,
    });
  });

  it('moves the legal name’s rejection balance and Alert on every one of its rows', async () => {
    const row = await pickRow(1);
    const res = await edit(FINANCE, { unique_key: row.id, column: 'usedRsv', value: '75.25', historic: 0 });
    expect(res.statusCode).toBe(200);
    const expected = await expectedDerived();
    const { rows } = await sql<{ id: number; merch_rej_bal: string; alert: boolean; classification: string }>`
      select r.id, ln.merch_rej_bal::text, r.alert, r.classification
      from ach_returns r join ach_legal_names ln on ln.partner_id = r.partner_id and ln.legal_name = r.legal_name
      where r.partner_id = ${row.partner_id} and r.legal_name = ${row.legal_name}`.execute(t.db);
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) {
      expect(parseMoney(r.merch_rej_bal), `row ${r.id}`).toBe(expected.get(r.id)?.merchRejBal);
      expect(r.alert ? 'Yes' : 'No').toBe(expected.get(r.id)?.alert);
    }
    expect(parseMoney(res.json().row.merchRejBal)).toBe(expected.get(row.id)?.merchRejBal);
  });

  it('keeps the legal name’s balance and totals equal to its rows’ through edits, and moves the Alert across zero', async () => {
    // A legal name whose rows raise the Alert: its balance is negative, so enough written off turns it positive.
    const { rows: alerted } = await sql<{ id: number; partner_id: number; legal_name: string; bal: string }>`
      select r.id, r.partner_id, r.legal_name, ln.merch_rej_bal::text as bal
      from ach_returns r join ach_legal_names ln on ln.partner_id = r.partner_id and ln.legal_name = r.legal_name
      where r.alert and r.historic = 0 and r.write_off is null order by r.id limit 1`.execute(t.db);
    const target = alerted[0];
    if (!target) throw new Error('no alerted row');
    const lift = (-parseMoney(target.bal) + 100n) / 100n; // whole dollars that lift the balance above zero
    const up = await edit(FINANCE, {
      unique_key: target.id,
      column: 'writeOff',
      value: String(lift),
      historic: 0,
    });
    expect(up.statusCode).toBe(200);
    expect(parseMoney(up.json().row.merchRejBal)).toBeGreaterThan(0n);
    expect(up.json().row.Alert).toBe('No');
    const check = async () => {
      const expected = await expectedDerived();
      const { rows } = await sql<{ id: number; alert: boolean }>`select id, alert from ach_returns
        where partner_id = ${target.partner_id} and legal_name = ${target.legal_name}`.execute(t.db);
      for (const r of rows) expect(r.alert ? 'Yes' : 'No', `row ${r.id}`).toBe(expected.get(r.id)?.alert);
      // The legal name's row against plain sums over its returns.
      const { rows: pair } = await sql<Record<string, string>>`select
          (select row_to_json(x)::text from (select merch_rej_bal, returns, transaction_amount, used_rsv, re_ran,
             sent_to_coll, write_off from ach_legal_names
           where partner_id = ${target.partner_id} and legal_name = ${target.legal_name}) x) as kept,
          (select row_to_json(y)::text from (select sum(coalesce(used_rsv, 0) + coalesce(re_ran, 0)
               + coalesce(sent_to_coll, 0) + coalesce(write_off, 0) - transaction_amount) as merch_rej_bal,
             count(*)::int as returns, sum(transaction_amount) as transaction_amount,
             coalesce(sum(used_rsv), 0) as used_rsv, coalesce(sum(re_ran), 0) as re_ran,
             coalesce(sum(sent_to_coll), 0) as sent_to_coll, coalesce(sum(write_off), 0) as write_off
           from ach_returns where partner_id = ${target.partner_id} and legal_name = ${target.legal_name}) y) as plain`.execute(
        t.db,
      );
      const norm = (text: string | undefined) =>
        Object.fromEntries(
          Object.entries(JSON.parse(text ?? '{}') as Record<string, number | string>).map(([k, v]) => [
            k,
            k === 'returns' ? Number(v) : parseMoney(String(v)),
          ]),
        );
      expect(norm(pair[0]?.kept)).toEqual(norm(pair[0]?.plain));
      // And the ISO's kept totals (what an ISO-name filter and the unfiltered page answer from).
      const { rows: isoPair } = await sql<Record<string, string>>`select
          (select row_to_json(x)::text from (select returns, transaction_amount, used_rsv, re_ran, sent_to_coll,
             write_off from ach_totals t where t.partner_id = ${target.partner_id}
             and t.iso_name = (select coalesce(iso_name, '') from ach_returns where id = ${target.id})) x) as kept,
          (select row_to_json(y)::text from (select count(*)::int as returns, sum(transaction_amount) as transaction_amount,
             coalesce(sum(used_rsv), 0) as used_rsv, coalesce(sum(re_ran), 0) as re_ran,
             coalesce(sum(sent_to_coll), 0) as sent_to_coll, coalesce(sum(write_off), 0) as write_off
           from ach_returns where partner_id = ${target.partner_id}
             and coalesce(iso_name, '') = (select coalesce(iso_name, '') from ach_returns where id = ${target.id})) y) as plain`.execute(
        t.db,
      );
      expect(norm(isoPair[0]?.kept)).toEqual(norm(isoPair[0]?.plain));
    };
    await check();
    // Another row of the same legal name, then the first one put back: the Alert returns.
    const { rows: other } = await sql<{ id: number }>`select id from ach_returns
      where partner_id = ${target.partner_id} and legal_name = ${target.legal_name} and id <> ${target.id}
        and historic = 0 and re_ran is null order by id limit 1`.execute(t.db);
    if (other[0]) {
      const second = await edit(FINANCE, {
        unique_key: other[0].id,
        column: 'reRan',
        value: '12.34',
        historic: 0,
      });
      expect(second.statusCode).toBe(200);
      await check();
    }
    const back = await edit(FINANCE, { unique_key: target.id, column: 'writeOff', value: '', historic: 0 });
    expect(back.statusCode).toBe(200);
    await check();
  });

  it('counts and sums a page filtered by classification, Alert and resolution as its rows do, through edits', async () => {
    const filters = [
      { id: 'Alert', kind: 'select', values: ['Yes'] },
      { id: 'rejRes', kind: 'select', values: ['Used Reserve', 'Write Off'] },
      { id: 'classification', kind: 'select', values: ['reject closed', 'resurrect'] },
    ];
    const check = async () => {
      const expected = await expectedDerived();
      const matching = (await rawRows()).filter(
        (r) =>
          expected.get(r.id)?.alert === 'Yes' &&
          (r.rejRes === 'Used Reserve' || r.rejRes === 'Write Off') &&
          ['reject closed', 'resurrect'].includes(expected.get(r.id)?.classification ?? ''),
      );
      const res = await (await as(ADMIN)).post('/api/app/ach/query', { filters });
      expect(res.statusCode).toBe(200);
      expect(res.json().total).toBe(matching.length);
      const sumOf = (k: 'transaction_amount' | 'used_rsv' | 're_ran' | 'sent_to_coll' | 'write_off') =>
        matching.reduce((acc, r) => acc + (r[k] === null ? 0n : parseMoney(r[k])), 0n);
      const totals = res.json().totals as Record<string, string>;
      expect(parseMoney(totals.TransactionAmount ?? '')).toBe(sumOf('transaction_amount'));
      expect(parseMoney(totals.usedRsv ?? '')).toBe(sumOf('used_rsv'));
      expect(parseMoney(totals.reRan ?? '')).toBe(sumOf('re_ran'));
      expect(parseMoney(totals.sentToColl ?? '')).toBe(sumOf('sent_to_coll'));
      expect(parseMoney(totals.writeOff ?? '')).toBe(sumOf('write_off'));
      // Every kept group against its rows, so no group is left behind (nor one with no rows).
      const { rows: differ } = await sql<{ n: number }>`
        with kept as (select partner_id, classification, alert_label, rej_res, returns, transaction_amount, used_rsv,
                        re_ran, sent_to_coll, write_off from ach_groups),
             plain as (select partner_id, classification, alert_label, coalesce(rej_res, '') as rej_res,
                         count(*)::int as returns, sum(transaction_amount) as transaction_amount,
                         coalesce(sum(used_rsv), 0) as used_rsv, coalesce(sum(re_ran), 0) as re_ran,
                         coalesce(sum(sent_to_coll), 0) as sent_to_coll, coalesce(sum(write_off), 0) as write_off
                       from ach_returns group by 1, 2, 3, 4)
        select count(*)::int as n from ((table kept except table plain) union all (table plain except table kept)) d`.execute(
        t.db,
      );
      expect(differ[0]?.n).toBe(0);
      // And every kept code-day.
      const { rows: differDays } = await sql<{ n: number }>`
        with kept as (select addenda_related, file_creation_date, returns, transaction_amount, used_rsv, re_ran,
                        sent_to_coll, write_off from ach_code_days),
             plain as (select addenda_related, file_creation_date, count(*)::int as returns,
                         sum(transaction_amount) as transaction_amount, coalesce(sum(used_rsv), 0) as used_rsv,
                         coalesce(sum(re_ran), 0) as re_ran, coalesce(sum(sent_to_coll), 0) as sent_to_coll,
                         coalesce(sum(write_off), 0) as write_off
                       from ach_returns group by 1, 2)
        select count(*)::int as n from ((table kept except table plain) union all (table plain except table kept)) d`.execute(
        t.db,
      );
      expect(differDays[0]?.n).toBe(0);
    };
    await check();
    // An alerted row without a resolution is resolved, given an amount, then written off past its balance (the
    // Alert of its legal name's rows moves), and everything is put back. A live row if there is one, else a historic
    // one: which rows are historic depends on the day the data is seeded (HISTORIC_AFTER_DAYS), and on some days no
    // live alerted row is unresolved.
    const { rows: alerted } = await sql<{ id: number; bal: string; historic: number }>`
      select r.id, ln.merch_rej_bal::text as bal, r.historic
      from ach_returns r join ach_legal_names ln on ln.partner_id = r.partner_id and ln.legal_name = r.legal_name
      where r.alert and r.rej_res is null and r.write_off is null and r.used_rsv is null
      order by r.historic, r.id limit 1`.execute(t.db);
    const target = alerted[0];
    if (!target) throw new Error('no alerted row without a resolution');
    const lift = (-parseMoney(target.bal) + 100n) / 100n;
    for (const [column, value] of [
      ['rejRes', 'Used Reserve'],
      ['usedRsv', '10.00'],
      ['rejRes', 'Write Off'],
      ['writeOff', String(lift)],
      ['writeOff', ''],
      ['usedRsv', ''],
      ['rejRes', ''],
    ] as const) {
      const res = await edit(FINANCE, { unique_key: target.id, column, value, historic: target.historic });
      expect(res.statusCode, `${column} ${value}`).toBe(200);
      await check();
    }
  });

  it('refuses other columns and bad values with 400 and changes nothing', async () => {
    const row = await pickRow(2);
    const before = await rowState(row.id);
    const bad: Record<string, unknown>[] = [
      { column: 'TransactionAmount', value: '1.00' },
      { column: 'workedBy', value: 'someone' },
      { column: 'merchRejBal', value: '0' },
      { column: 'used_rsv', value: '1' },
      { column: 'usedRsv', value: 'abc' },
      { column: 'usedRsv', value: '-5' },
      { column: 'usedRsv', value: '1.234' },
      { column: 'writeOff', value: '99999999999' },
      { column: 'rejRes', value: 'Paid' },
      { column: 'resDate', value: '2026-02-30' },
      { column: 'reRanDate', value: '11/05/2026' },
      { column: 'comment', value: 'x'.repeat(1001) },
      { column: 'comment', value: { text: 'x' } },
      { column: 'comment', value: 'ok', unique_key: 'x1' },
      { column: 'comment', value: 'ok', historic: 2 },
      { column: 'comment', value: 'ok', version: -1 },
      { column: 'comment', value: 'ok', extra: 1 },
    ];
    for (const b of bad) {
      const res = await edit(FINANCE, { unique_key: row.id, historic: 0, ...b });
      expect(res.statusCode, JSON.stringify(b).slice(0, 80)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect(await rowState(row.id)).toEqual(before);
  });

  it('answers 403 to users without ACH editing, and 404 for a row that is not there', async () => {
    const row = await pickRow(3);
    const before = await rowState(row.id);
    for (const who of [SALES, PARTNER]) {
      const res = await edit(who, { unique_key: row.id, column: 'comment', value: 'mine', historic: 0 });
      expect(res.statusCode, who).toBe(403);
    }
    expect(await rowState(row.id)).toEqual(before);
    expect(
      (await edit(FINANCE, { unique_key: 99_999_999, column: 'comment', value: 'x', historic: 0 }))
        .statusCode,
    ).toBe(404);
    // The same key under the other flag is not the row.
    expect(
      (await edit(FINANCE, { unique_key: row.id, column: 'comment', value: 'x', historic: 1 })).statusCode,
    ).toBe(404);
    expect(await rowState(row.id)).toEqual(before);
  });

  it('edits a historic row when told it is one', async () => {
    const { rows } = await sql<{
      id: number;
    }>`select id from ach_returns where historic = 1 order by id limit 1`.execute(t.db);
    const id = rows[0]?.id;
    const res = await edit(FINANCE, {
      unique_key: String(id),
      column: 'comment',
      value: 'From the sheet',
      historic: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().row.historic).toBe(1);
    expect((await rowState(id ?? 0))?.comment).toBe('From the sheet');
  });

  it('refuses an edit to a row someone changed since it was loaded (409) and keeps their change', async () => {
    const row = await pickRow(4);
    const first = await edit(ADMIN, {
      unique_key: row.id,
      column: 'comment',
      value: 'Admin was here',
      historic: 0,
      version: row.version,
    });
    expect(first.statusCode).toBe(200);
    const second = await edit(FINANCE, {
      unique_key: row.id,
      column: 'comment',
      value: 'Finance too',
      historic: 0,
      version: row.version,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(ACH_STALE_EDIT_MESSAGE);
    const state = await rowState(row.id);
    expect(state?.comment).toBe('Admin was here');
    expect(state?.worked_by).toBe(ADMIN);
    expect(state?.history).toBe(1);
    // With the version it now has, the edit goes through.
    const retry = await edit(FINANCE, {
      unique_key: row.id,
      column: 'comment',
      value: 'Finance too',
      historic: 0,
      version: row.version + 1,
    });
    expect(retry.statusCode).toBe(200);
  });
});

it('keeps the whole table’s totals true after the edits', async () => {
  expect(await pageTotals(ADMIN)).toEqual(await plainTotals());
  expect(await pageTotals(PARTNER)).toEqual(await plainTotals(await summitId()));
});

describe('ISO scoping', () => {
  it('shows the partner user only their ISO’s rows, history and rates', async () => {
    const summit = await summitId();
    const partner = await as(PARTNER);
    const page = await partner.post('/api/app/ach/query', { pageSize: 500 });
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(await countOf(sql`partner_id = ${summit}`));
    expect(page.json().total).toBeGreaterThan(0);
    for (const r of page.json().rows) expect(r.GroupLevel1Name).toBe(SUMMIT);
    const other = await partner.post('/api/app/ach/query', {
      filters: [{ id: 'GroupLevel1Name', kind: 'text', value: 'Harborline' }],
    });
    expect(other.json().total).toBe(0);

    const list = await partner.post('/api/ach', {});
    expect(list.json().rejects.length).toBe(Math.min(5000, await countOf(sql`partner_id = ${summit}`)));
    for (const r of list.json().rejects) expect(r.GroupLevel1Name).toBe(SUMMIT);

    const { rows } = await sql<{
      id: number;
    }>`select id from ach_returns where partner_id <> ${summit} and historic = 0 limit 1`.execute(t.db);
    const history = await partner.post('/api/app/ach/history', { unique_key: rows[0]?.id, historic: 0 });
    expect(history.statusCode).toBe(404);

    const merchants = await partner.post('/api/app/ach/returnRates', { level: 'merchant', limit: 500 });
    expect(merchants.json().rows.length).toBeGreaterThan(0);
    for (const r of merchants.json().rows) expect(r.iso).toBe(SUMMIT);
    const isos = await partner.post('/api/app/ach/returnRates', { level: 'iso' });
    expect(isos.json().rows.map((r: { iso: string }) => r.iso)).toEqual([SUMMIT]);
  });
});

describe('return rates', () => {
  interface Expected {
    key: string;
    entries: number;
    returns: number;
    unauthorized: number;
    administrative: number;
    over: string[];
  }
  /** Plain SQL over the debit entries and the returns of the 60 days ending the day the data was made. */
  async function expectedRates(level: 'merchant' | 'iso') {
    const group = level === 'merchant' ? sql`m.mid` : sql`p.account_name`;
    const { rows } = await sql<Omit<Expected, 'over'>>`
      with d as (select (seeded_at at time zone 'UTC')::date as to_day from demo_state),
      e as (select merchant_id, sum(entries)::int as n from ach_debit_entries, d
            where day between d.to_day - 59 and d.to_day group by merchant_id),
      r as (select merchant_id, count(*)::int as n,
                   count(*) filter (where addenda_related in ('R05', 'R07', 'R10', 'R11', 'R29', 'R51'))::int as u,
                   count(*) filter (where addenda_related in ('R02', 'R03', 'R04'))::int as a
            from ach_returns, d
            where effective_entry_date between d.to_day - 59 and d.to_day and addenda_related like 'R%'
            group by merchant_id)
      select ${group} as key, coalesce(sum(e.n), 0)::int as entries, coalesce(sum(r.n), 0)::int as returns,
             coalesce(sum(r.u), 0)::int as unauthorized, coalesce(sum(r.a), 0)::int as administrative
      from merchants m join partners p on p.id = m.partner_id
      left join e on e.merchant_id = m.id left join r on r.merchant_id = m.id
      where e.n > 0 or r.n > 0
      group by ${group}`.execute(t.db);
    return new Map(
      rows.map((r) => {
        const over: string[] = [];
        if (r.entries > 0 && r.unauthorized / r.entries > 0.005) over.push('unauthorized');
        if (r.entries > 0 && r.administrative / r.entries > 0.03) over.push('administrative');
        if (r.entries > 0 && r.returns / r.entries > 0.15) over.push('overall');
        return [r.key, { ...r, over }];
      }),
    );
  }

  for (const level of ['merchant', 'iso'] as const) {
    it(`per ${level}: counts, rates and thresholds as recomputed from the rows, those over first`, async () => {
      const expected = await expectedRates(level);
      const res = await (await as(ADMIN)).post('/api/app/ach/returnRates', { level, limit: 500 });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const { rows: day } = await sql<{
        to_day: string;
      }>`select (seeded_at at time zone 'UTC')::date::text as to_day from demo_state`.execute(t.db);
      expect(body.to).toBe(day[0]?.to_day);
      expect(body.total).toBe(expected.size);
      expect(expected.size).toBeLessThanOrEqual(500);
      expect(body.rows.length).toBe(expected.size);
      const overCount = [...expected.values()].filter((e) => e.over.length > 0).length;
      expect(overCount).toBeGreaterThan(0);
      expect(body.overCount).toBe(overCount);
      for (const [i, r] of body.rows.entries()) {
        const want = expected.get(level === 'merchant' ? r.mid : r.iso);
        expect(want, r.key).toBeDefined();
        expect(r).toMatchObject({
          entries: want?.entries,
          returns: want?.returns,
          unauthorized: want?.unauthorized,
          administrative: want?.administrative,
          over: want?.over,
        });
        if (want && want.entries > 0) expect(r.overallRate).toBeCloseTo(want.returns / want.entries, 12);
        // Those over a threshold come first.
        expect(r.over.length > 0, `row ${i}`).toBe(i < overCount);
      }
      const limited = await (await as(ADMIN)).post('/api/app/ach/returnRates', { level, limit: 3 });
      expect(limited.json().rows).toEqual(body.rows.slice(0, 3));
    });
  }

  it('refuses a level or a limit it does not know', async () => {
    const admin = await as(ADMIN);
    expect((await admin.post('/api/app/ach/returnRates', { level: 'bank' })).statusCode).toBe(400);
    expect((await admin.post('/api/app/ach/returnRates', { level: 'iso', limit: 0 })).statusCode).toBe(400);
  });
});

describe('saved ACH reports', () => {
  it('saves, lists, reads and deletes the user’s own reports, apart from other tables’', async () => {
    const finance = await as(FINANCE);
    const filtr = JSON.stringify({
      filters: [{ id: 'classification', kind: 'select', values: ['unresolved'] }],
      sort: [],
    });
    const visCol = JSON.stringify(['IndividualIdentificationNumber', 'classification', 'merchRejBal']);
    const saved = await finance.post('/api/saveACHreport', {
      email: FINANCE,
      saveTextboxVal: 'Open returns',
      filtr,
      visCol,
    });
    expect(saved.statusCode).toBe(200);
    // The spec's list-of-pairs form too.
    const pairs = await finance.post('/api/saveACHreport', {
      email: FINANCE,
      saveTextboxVal: 'R01 only',
      filtr: JSON.stringify([{ id: 'AddendaRelated', value: 'R01' }]),
      visCol,
    });
    expect(pairs.statusCode, pairs.body).toBe(200);
    const names = await finance.post('/api/getallACHreports', { email: FINANCE });
    expect(names.json()).toEqual([{ reportName: 'Open returns' }, { reportName: 'R01 only' }]);
    const selfServe = await finance.post('/api/getallreports', { email: FINANCE, table: 'selfserve' });
    expect(selfServe.json()).toEqual([]);
    const one = await finance.post('/api/getachreport', { email: FINANCE, name: 'Open returns' });
    expect(JSON.parse(one.json().filters).filters).toEqual(JSON.parse(filtr).filters);
    expect(JSON.parse(one.json().columns)).toEqual(JSON.parse(visCol));
    const r01 = await finance.post('/api/getachreport', { email: FINANCE, name: 'R01 only' });
    expect(JSON.parse(r01.json().filters).filters).toEqual([
      { id: 'AddendaRelated', kind: 'select', values: ['R01'] },
    ]);

    // Another user's e-mail, and another user's view of them.
    expect((await finance.post('/api/getallACHreports', { email: ADMIN })).statusCode).toBe(403);
    expect((await (await as(ADMIN)).post('/api/getallACHreports', { email: ADMIN })).json()).toEqual([]);
    expect(
      (await finance.post('/api/saveACHreport', { email: FINANCE, saveTextboxVal: 'x', filtr: '{', visCol }))
        .statusCode,
    ).toBe(400);

    expect(
      (await finance.post('/api/deleteachreport', { email: FINANCE, name: 'Open returns' })).statusCode,
    ).toBe(200);
    expect(
      (await finance.post('/api/getachreport', { email: FINANCE, name: 'Open returns' })).statusCode,
    ).toBe(404);
    expect((await finance.post('/api/getallACHreports', { email: FINANCE })).json()).toEqual([
      { reportName: 'R01 only' },
    ]);
  });
});

describe('seeding a demo database whose ACH tables are empty', () => {
  it('makes the same ACH rows the first seed made', async () => {
    await sql`delete from ach_history`.execute(t.db);
    await sql`delete from ach_returns`.execute(t.db);
    await sql`delete from ach_reserves`.execute(t.db);
    await sql`delete from ach_debit_entries`.execute(t.db);
    await sql`delete from ach_rate_window`.execute(t.db);
    await sql`delete from ach_rate_window_iso`.execute(t.db);
    const report = await seedAchIfMissing(t.db);
    expect(report?.returns).toBeGreaterThan(0);
    expect(await fingerprint()).toEqual(seeded);
    // A second call finds the rows and does nothing.
    expect(await seedAchIfMissing(t.db)).toBeNull();
  });
});
