import { addMonths, monthStart, residualTable, uploadTypes, XLSX_MIME } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallCacheEntries } from '../src/platform/answerCache';
import { scopeTransaction } from '../src/platform/scope';
import { Client, type TestApp, testApp } from './helpers';

let t: TestApp;
let admin: Client;
/**
 * The months the seed filled, from the seed's own day (demo_state.seeded_at): its last whole month of figures, and
 * its last month of residuals. The month of the clock would be one later in a run that starts on the 1st just after
 * a seed of the month before.
 */
let month: string;
let residualMonth: string;

beforeAll(async () => {
  t = await testApp();
  const { seeded_at } = await t.db.selectFrom('demo_state').select('seeded_at').executeTakeFirstOrThrow();
  month = addMonths(monthStart(new Date(seeded_at)), -1);
  residualMonth = addMonths(monthStart(new Date(seeded_at)), -2);
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
});
afterAll(async () => {
  await t?.close();
});

const query = (c: Client, body: Record<string, unknown>) =>
  c.post('/api/selfserve/query', { dt: month, ...body });

async function count(text: string, ...params: unknown[]): Promise<number> {
  const parts = text.split('?');
  const raw = sql.join(
    parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
    sql``,
  );
  const { rows } = await sql<{ n: number }>`${raw}`.execute(t.db);
  return rows[0]?.n ?? 0;
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function readXlsx(body: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/**
 * Per residual month (from `from`), its rows and how often a row lies after one of a later agent, read in the order
 * they lie in the month's partition (2026_12_07_0020_residuals_agent_order).
 */
async function agentBreaks(from: string) {
  const { rows } = await sql<{ month: string; n: number; breaks: number }>`
    select month, count(*)::int as n, (count(*) filter (where a < before))::int as breaks from (
      select to_char(month, 'YYYY-MM') as month, lower(agent) as a,
        lag(lower(agent)) over (partition by month order by ctid) as before
      from residuals where month >= ${from}::date) x
    group by month order by month`.execute(t.db);
  return rows;
}

describe('table query', () => {
  it('pages the month with the default sort and counts every row', async () => {
    const res = await query(admin, { page: 1, pageSize: 10 });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.rows).toHaveLength(10);
    expect(page.total).toBe(
      await count('select count(*) as n from merchant_monthly where month = ?::date', month),
    );
    const volumes = page.rows.map((r: { tx_amt: string }) => Number(r.tx_amt));
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    const top = await count(
      'select count(*) as n from merchant_monthly where month = ?::date and volume > ?',
      month,
      volumes[0],
    );
    expect(top).toBe(0);
    const second = (await query(admin, { page: 2, pageSize: 10 })).json();
    expect(second.rows[0].mid).not.toBe(page.rows[9].mid);
  });

  it("keeps each seeded month's residuals in the order of their agent", async () => {
    // Written in agent order, a month's rows lie in it but for a row or two the database placed on the next page
    // (in MID order, about every other row would follow one of a later agent).
    const months = await agentBreaks('2000-01-01');
    expect(months.length).toBeGreaterThan(12);
    for (const m of months) expect(m.breaks, m.month).toBeLessThanOrEqual(2);
    expect(months.reduce((n, m) => n + m.breaks, 0)).toBeLessThan(months.length);
  });

  it('a deep page holds the same rows as the ordered month at that place, filtered or not, for staff and an ISO', async () => {
    const mids = async (text: string, ...params: unknown[]) => {
      const parts = text.split('?');
      const raw = sql.join(
        parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
        sql``,
      );
      return (await sql<{ mid: string }>`${raw}`.execute(t.db)).rows.map((r) => r.mid);
    };
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const cases: Array<[Client, Record<string, unknown>, string, string]> = [
      [admin, {}, '', 'a.volume desc, m.id'],
      [
        admin,
        {
          filters: [{ id: 'tx_cnt', kind: 'range', min: 10, max: null }],
          sort: [{ id: 'income', desc: false }],
        },
        'and a.transactions >= 10',
        'coalesce(i.net, 0), m.id',
      ],
      [partner, {}, "and p.account_name = 'Summit Payment Group'", 'a.volume desc, m.id'],
    ];
    for (const [client, request, where, order] of cases) {
      const ordered = await mids(
        `select m.mid from merchant_monthly a join merchants m on m.id = a.merchant_id
         join partners p on p.id = m.partner_id
         left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
         where a.month = ?::date ${where} order by ${order}`,
        month,
      );
      const pageNo = Math.max(2, Math.floor(ordered.length / 20));
      const page = (await query(client, { ...request, page: pageNo, pageSize: 10 })).json();
      expect(ordered.length, where).toBeGreaterThan(20);
      expect(
        page.rows.map((r: { mid: string }) => r.mid),
        where,
      ).toEqual(ordered.slice((pageNo - 1) * 10, pageNo * 10));
    }
    const residualOrder = await mids(
      'select mid from residuals where month = ?::date order by total_net desc nulls last, id',
      residualMonth,
    );
    const residualPage = (
      await admin.post('/api/ResidualSelfServe/query', {
        dt: residualMonth,
        sort: [{ id: 'TotalNet', desc: true }],
        page: 5,
        pageSize: 10,
      })
    ).json();
    expect(residualPage.rows.map((r: { MID: string }) => r.MID)).toEqual(residualOrder.slice(40, 50));
  });

  it('filters text by case-insensitive prefix', async () => {
    const some = (await query(admin, { pageSize: 25 })).json().rows[3];
    const prefix = String(some.dba).slice(0, 3).toUpperCase();
    const res = (
      await query(admin, { filters: [{ id: 'dba', kind: 'text', value: prefix }], pageSize: 1000 })
    ).json();
    expect(res.total).toBe(
      await count(
        'select count(*) as n from merchant_monthly a join merchants m on m.id = a.merchant_id where a.month = ?::date and lower(m.dba) like ?',
        month,
        `${prefix.toLowerCase()}%`,
      ),
    );
    expect(res.rows.every((r: { dba: string }) => r.dba.toLowerCase().startsWith(prefix.toLowerCase()))).toBe(
      true,
    );
    const wild = (await query(admin, { filters: [{ id: 'dba', kind: 'text', value: '%' }] })).json();
    expect(wild.total).toBe(0);
  });

  it('filters whole-number ranges, date ranges (end date to end of day) and selects', async () => {
    const range = (
      await query(admin, { filters: [{ id: 'tx_cnt', kind: 'range', min: 100, max: 2000 }], pageSize: 1000 })
    ).json();
    expect(range.total).toBe(
      await count(
        'select count(*) as n from merchant_monthly where month = ?::date and transactions between 100 and 2000',
        month,
      ),
    );
    const opened = (
      await query(admin, {
        filters: [{ id: 'opend', kind: 'dateRange', from: '2020-01-01', to: '2020-12-31' }],
      })
    ).json();
    expect(opened.total).toBe(
      await count(
        "select count(*) as n from merchant_monthly a join merchants m on m.id = a.merchant_id where a.month = ?::date and m.opened_on between '2020-01-01' and '2020-12-31'",
        month,
      ),
    );
    const select = (
      await query(admin, {
        filters: [{ id: 'merchprofile', kind: 'select', values: ['PayLo', 'High Risk'] }],
      })
    ).json();
    expect(select.total).toBe(
      await count(
        "select count(*) as n from merchant_monthly a join merchants m on m.id = a.merchant_id where a.month = ?::date and m.profile in ('PayLo', 'High Risk')",
        month,
      ),
    );
  });

  it('searches MID, DBA, legal name and ISO by prefix', async () => {
    const res = (await query(admin, { search: 'summit', pageSize: 25 })).json();
    expect(res.total).toBeGreaterThan(0);
    expect(
      res.rows.every(
        (r: { groupname: string; dba: string }) => /^summit/i.test(r.groupname) || /^summit/i.test(r.dba),
      ),
    ).toBe(true);
  });

  it('refuses unknown columns, mismatched filters, unsortable sorts, bad ranges and page sizes', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ filters: [{ id: 'password_hash', kind: 'text', value: 'x' }] }, /Unknown column "password_hash"/],
      [{ filters: [{ id: 'dba', kind: 'range', min: 1, max: 2 }] }, /cannot be filtered as range/],
      [{ sort: [{ id: 'm.id; drop table users', desc: true }] }, /Unknown column/],
      [{ filters: [{ id: 'tx_cnt', kind: 'range', min: 5, max: 1 }] }, /minimum must not exceed/],
      [{ filters: [{ id: 'tx_cnt', kind: 'range', min: 1.5, max: null }] }, /whole numbers/],
      [{ filters: [{ id: 'merchprofile', kind: 'select', values: ['Nope'] }] }, /not a value/],
      [{ pageSize: 50 }, /Page size must be one of 10, 25, 1000/],
      [{ dt: '2015-01-01' }, /from 2016-05/],
      [{ dt: '2026-13-01' }, /first day of a month/],
      [{ sql: 'select 1' }, /Unrecognized key/],
    ];
    for (const [body, message] of cases) {
      const res = await query(admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('the spec’s list call returns every row of the month', async () => {
    const res = await admin.post('/api/selfserve', { dt: month });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(
      await count('select count(*) as n from merchant_monthly where month = ?::date', month),
    );
    const residual = await admin.post('/api/ResidualSelfServe', { dt: residualMonth });
    expect(residual.json()).toHaveLength(
      await count('select count(*) as n from residuals where month = ?::date', residualMonth),
    );
    const search = (await admin.post('/api/searchselfserve', { val: 'summit', dt: month })).json();
    expect(search.length).toBe((await query(admin, { search: 'summit' })).json().total);
  });

  it('an ISO-bound user sees only their ISO’s rows', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const res = (await query(partner, { pageSize: 1000 })).json();
    expect(res.total).toBe(
      await count(
        "select count(*) as n from merchant_monthly a join partners p on p.id = a.partner_id where a.month = ?::date and p.account_name = 'Summit Payment Group'",
        month,
      ),
    );
    expect(res.rows.every((r: { groupname: string }) => r.groupname === 'Summit Payment Group')).toBe(true);
    const residual = (
      await partner.post('/api/ResidualSelfServe/query', { dt: residualMonth, pageSize: 1000 })
    ).json();
    expect(residual.rows.every((r: { Agent: string }) => r.Agent === 'Summit Payment Group')).toBe(true);
  });
});

/** Sums exact decimal strings (or counts) in whole cents, so the oracle never rounds. */
function exactSum(values: readonly unknown[]): string {
  let cents = 0n;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const [whole = '0', fraction = ''] = String(v).replace('-', '').split('.');
    const magnitude = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
    cents += String(v).startsWith('-') ? -magnitude : magnitude;
  }
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** Raw rows of a query, summed column by column in JS. */
async function rawSums(columns: Record<string, string>, text: string, ...params: unknown[]) {
  const parts = text.split('?');
  const raw = sql.join(
    parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
    sql``,
  );
  const { rows } = await sql<Record<string, unknown>>`${raw}`.execute(t.db);
  const out: Record<string, string> = {};
  for (const [id, field] of Object.entries(columns)) out[id] = exactSum(rows.map((r) => r[field]));
  return { sums: out, n: rows.length };
}

/** The answer's totals, normalised to two decimals like the oracle. */
const asCents = (totals: Record<string, string>) =>
  Object.fromEntries(Object.entries(totals).map(([id, v]) => [id, exactSum([v])]));

const SELF_SERVE_RAW = {
  tx_amt: 'volume',
  tx_cnt: 'transactions',
  cb_amt: 'chargeback_volume',
  cb_cnt: 'chargebacks',
  ref_amt: 'refund_volume',
  ref_cnt: 'refunds',
  income: 'income',
};
const selfServeRaw = (extra: string) =>
  `select a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds,
     coalesce(i.net, 0) as income
   from merchant_monthly a join merchants m on m.id = a.merchant_id join partners p on p.id = m.partner_id
   left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
   where a.month = ?::date ${extra}`;

const RESIDUAL_RAW = {
  Transactions: 'transactions',
  Volume: 'volume',
  Income: 'income',
  TotalNet: 'total_net',
  Expense: 'expense',
  ProfitLoss: 'profit_loss',
  RefundsNet: 'refunds_net',
};

describe('totals', () => {
  it('sums Self Serve money and counts over every filtered row, not the page', async () => {
    const cases: Array<[Record<string, unknown>[], string]> = [
      [[], ''],
      [
        [
          { id: 'merchprofile', kind: 'select', values: ['PayLo', 'High Risk'] },
          { id: 'tx_cnt', kind: 'range', min: 100, max: null },
        ],
        "and m.profile in ('PayLo', 'High Risk') and a.transactions >= 100",
      ],
      [
        [
          { id: 'opend', kind: 'dateRange', from: '2018-01-01', to: '2022-12-31' },
          { id: 'banknum', kind: 'select', values: ['CBCAL', 'PPS'] },
        ],
        "and m.opened_on between '2018-01-01' and '2022-12-31' and m.sponsor_bank in ('CBCAL', 'PPS')",
      ],
    ];
    for (const [filters, where] of cases) {
      const page = (await query(admin, { filters, page: 2, pageSize: 10 })).json();
      const oracle = await rawSums(SELF_SERVE_RAW, selfServeRaw(where), month);
      expect(oracle.n, where).toBeGreaterThan(10);
      expect(page.total, where).toBe(oracle.n);
      expect(Object.keys(page.totals).sort()).toEqual(Object.keys(SELF_SERVE_RAW).sort());
      expect(asCents(page.totals), where).toEqual(oracle.sums);
      // Counts come back as whole numbers.
      expect(page.totals.tx_cnt).toMatch(/^\d+$/);
    }
  });

  it('sums Residual Self Serve over every filtered row', async () => {
    const cases: Array<[Record<string, unknown>[], string]> = [
      [[], ''],
      [[{ id: 'Processor', kind: 'select', values: ['TSYS'] }], "and processor = 'TSYS'"],
      [
        [
          { id: 'Transactions', kind: 'range', min: 50, max: 5000 },
          { id: 'TotalNet', kind: 'range', min: 0, max: null },
        ],
        'and transactions between 50 and 5000 and total_net >= 0',
      ],
    ];
    for (const [filters, where] of cases) {
      const page = (
        await admin.post('/api/ResidualSelfServe/query', { dt: residualMonth, filters, pageSize: 10 })
      ).json();
      const oracle = await rawSums(
        RESIDUAL_RAW,
        `select * from residuals where month = ?::date ${where}`,
        residualMonth,
      );
      expect(oracle.n, where).toBeGreaterThan(10);
      expect(page.total, where).toBe(oracle.n);
      const picked = Object.fromEntries(Object.keys(RESIDUAL_RAW).map((id) => [id, page.totals[id]]));
      expect(asCents(picked), where).toEqual(oracle.sums);
    }
  });

  it('an ISO-bound user’s totals cover only their ISO’s rows', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const filters = [{ id: 'tx_cnt', kind: 'range', min: 1, max: null }];
    const page = (await query(partner, { filters })).json();
    const oracle = await rawSums(
      SELF_SERVE_RAW,
      selfServeRaw("and p.account_name = 'Summit Payment Group' and a.transactions >= 1"),
      month,
    );
    expect(oracle.n).toBeGreaterThan(0);
    expect(page.total).toBe(oracle.n);
    expect(asCents(page.totals)).toEqual(oracle.sums);
    const everyone = (await query(admin, { filters })).json();
    expect(Number(everyone.totals.tx_amt)).toBeGreaterThan(Number(page.totals.tx_amt));

    const residual = (await partner.post('/api/ResidualSelfServe/query', { dt: residualMonth })).json();
    const residualOracle = await rawSums(
      RESIDUAL_RAW,
      "select r.* from residuals r join partners p on p.id = r.partner_id where r.month = ?::date and p.account_name = 'Summit Payment Group'",
      residualMonth,
    );
    expect(residual.total).toBe(residualOracle.n);
    const picked = Object.fromEntries(Object.keys(RESIDUAL_RAW).map((id) => [id, residual.totals[id]]));
    expect(asCents(picked)).toEqual(residualOracle.sums);
  });
  it("keeps each month's totals per ISO equal to its rows through inserts, updates, deletes and imports", async () => {
    // The month totals (2026_11_27_0010) against a plain group-by over the rows, every month and ISO at once.
    const kept = async (totals: string, rows: string, columns: string[], db: typeof t.db = t.db) => {
      const sums = (from: string, n: string) =>
        sql.raw(`select month::text as month, partner_id, ${n}::int as n,
          ${columns.map((c) => `${from === rows ? `coalesce(sum(${c}), 0)` : c}::text as ${c}`).join(', ')}
          from ${from} ${from === rows ? 'group by month, partner_id' : ''} order by month, partner_id`);
      const [got, want] = await Promise.all([
        sql<Record<string, unknown>>`${sums(totals, 'n')}`.execute(db),
        sql<Record<string, unknown>>`${sums(rows, 'count(*)')}`.execute(db),
      ]);
      expect(want.rows.length).toBeGreaterThan(10);
      expect(got.rows.map(normal)).toEqual(want.rows.map(normal));
    };
    const normal = (r: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          typeof v === 'string' && /^-?\d+\.\d+$/.test(v) ? exactSum([v]) : v,
        ]),
      );
    const selfServe = () =>
      kept('selfserve_month_totals', 'selfserve_rows', [
        'tx_amt',
        'tx_cnt',
        'cb_amt',
        'cb_cnt',
        'ref_amt',
        'ref_cnt',
        'income',
      ]);
    const residuals = (db: typeof t.db = t.db) =>
      kept(
        'residual_month_totals',
        'residuals',
        ['transactions', 'volume', 'total_net', 'expense', 'profit_loss', 'refunds_net', 'income1'],
        db,
      );
    await selfServe();
    await residuals();

    // Rows written by plain statements: one inserted, some updated (one moved to another ISO), some deleted.
    const [first, second] = (
      await sql<{ id: number; partner_id: number }>`select id, partner_id from residuals
        where month = ${residualMonth}::date order by id limit 2`.execute(t.db)
    ).rows;
    const other = await sql<{
      id: number;
    }>`select id from partners where id <> ${first?.partner_id} order by id limit 1`.execute(t.db);
    // Rolled back after the check: the later tests read this month's rows as seeded.
    const rolledBack = new Error('rolled back');
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`insert into residuals (partner_id, merchant_id, month, processor, mid, dba, transactions, volume,
            income, gross, net, total_gross, total_payout, total_net, expense, profit_loss, refunds_net)
          select partner_id, merchant_id, month, processor, mid, dba, 7, 700.10, 7.01, 7.02, 7.03, 7.04, 7.05, 7.06,
            7.07, 7.08, null
          from residuals where id = ${first?.id}`.execute(trx);
        await sql`update residuals set total_net = total_net + 1.11, refunds_net = null
          where month = ${residualMonth}::date and id % 7 = 0`.execute(trx);
        await sql`update residuals set partner_id = ${other.rows[0]?.id} where id = ${second?.id}`.execute(
          trx,
        );
        await sql`delete from residuals where month = ${residualMonth}::date and id % 11 = 0`.execute(trx);
        await residuals(trx);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    await residuals();

    // A Self Serve import rewrites a month's rows through the derived refresh.
    const rows = (await query(admin, { pageSize: 10 })).json().rows as Array<{ mid: string }>;
    const file = await xlsx([
      ['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income'],
      [rows[2]?.mid, 54321.09, 654, 11, 1, 22.5, 3, 88.88],
    ]);
    expect((await admin.upload(`/api/selfserve/import?dt=${month}`, file)).statusCode).toBe(200);
    await selfServe();
    const selfServePage = (await query(admin, { pageSize: 10 })).json();
    const selfServeOracle = await rawSums(SELF_SERVE_RAW, selfServeRaw(''), month);
    expect(selfServePage.total).toBe(selfServeOracle.n);
    expect(asCents(selfServePage.totals)).toEqual(selfServeOracle.sums);
  });
});

describe('kept counts', () => {
  it("keeps a filtered month's count and totals for its pages until a row of that month is written", async () => {
    const partVersion = async (m: string) =>
      Number(
        (
          await sql<{ version: string }>`select coalesce((select version from answer_part_versions
            where name = 'selfserve_counts' and part = ${m}), 0)::text as version`.execute(t.db)
        ).rows[0]?.version,
      );
    const filters = [{ id: 'tx_cnt', kind: 'range', min: 600, max: null }];
    const oracle = () => rawSums(SELF_SERVE_RAW, selfServeRaw('and a.transactions >= 600'), month);
    const before = await oracle();
    expect(before.n).toBeGreaterThan(20);
    // Two pages and another order of one filtered month: one count kept, the same on every page.
    const kept = smallCacheEntries(t.db);
    for (const body of [{ page: 1 }, { page: 2 }, { page: 2, sort: [{ id: 'dba', desc: false }] }]) {
      const page = (await query(admin, { filters, pageSize: 10, ...body })).json();
      expect(page.total).toBe(before.n);
      expect(asCents(page.totals)).toEqual(before.sums);
    }
    expect(smallCacheEntries(t.db)).toBe(kept + 1);

    // A merchant under the bound imported over it: the month's version rises and the next page counts it.
    const under = await sql<{
      mid: string;
    }>`select m.mid from merchant_monthly a join merchants m on m.id = a.merchant_id
      where a.month = ${month}::date and a.transactions < 600 order by m.mid limit 1`.execute(t.db);
    const mid = under.rows[0]?.mid;
    expect(mid).toBeDefined();
    const monthBefore = await partVersion(month);
    const earlier = addMonths(month, -1);
    const earlierBefore = await partVersion(earlier);
    const file = await xlsx([
      ['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income'],
      [mid, 76543.21, 5432, 0, 0, 0, 0, 99.99],
    ]);
    expect((await admin.upload(`/api/selfserve/import?dt=${month}`, file)).statusCode).toBe(200);
    expect(await partVersion(month)).toBeGreaterThan(monthBefore);
    expect(await partVersion(earlier)).toBe(earlierBefore);
    const after = await oracle();
    expect(after.n).toBe(before.n + 1);
    const page = (await query(admin, { filters, pageSize: 10, page: 2 })).json();
    expect(page.total).toBe(after.n);
    expect(asCents(page.totals)).toEqual(after.sums);

    // A statement writing another month's rows raises that month alone.
    const monthNow = await partVersion(month);
    await sql`update selfserve_rows set tx_cnt = tx_cnt where month = ${earlier}::date and merchant_id = (
      select min(merchant_id) from selfserve_rows where month = ${earlier}::date)`.execute(t.db);
    expect(await partVersion(earlier)).toBeGreaterThan(earlierBefore);
    expect(await partVersion(month)).toBe(monthNow);
  });
});

describe('range bounds', () => {
  it('refuses negative, fractional and too large bounds on counts, and too large amounts, with 400', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['/api/selfserve/query', { id: 'tx_cnt', kind: 'range', min: -1, max: null }, /count.*0 or more/],
      ['/api/selfserve/query', { id: 'cb_cnt', kind: 'range', min: null, max: -5 }, /count.*0 or more/],
      ['/api/selfserve/query', { id: 'ref_cnt', kind: 'range', min: 0.5, max: null }, /whole numbers/],
      [
        '/api/selfserve/query',
        { id: 'tx_cnt', kind: 'range', min: null, max: 2_147_483_648 },
        /up to 2,147,483,647/,
      ],
      ['/api/selfserve/query', { id: 'tx_amt', kind: 'range', min: 1e13, max: null }, /too large/],
      ['/api/ResidualSelfServe/query', { id: 'Transactions', kind: 'range', min: -1, max: null }, /count/],
      ['/api/ResidualSelfServe/query', { id: 'Transactions', kind: 'range', min: 3e9, max: null }, /up to/],
    ];
    for (const [path, filter, message] of cases) {
      const dt = path.startsWith('/api/selfserve') ? month : residualMonth;
      const res = await admin.post(path, { dt, filters: [filter] });
      expect(res.statusCode, JSON.stringify(filter)).toBe(400);
      expect(res.json().message, JSON.stringify(filter)).toMatch(message);
      const exported = await admin.post(path.replace('/query', '/export'), {
        dt,
        filters: [filter],
        columns: [dt === month ? 'mid' : 'MID'],
      });
      expect(exported.statusCode, JSON.stringify(filter)).toBe(400);
    }
    // Money may be filtered below zero (refunds and losses are negative) and counts from 0 up to the limit.
    const ok = await query(admin, {
      filters: [
        { id: 'income', kind: 'range', min: -1000, max: null },
        { id: 'tx_cnt', kind: 'range', min: 0, max: 2_147_483_647 },
      ],
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('export', () => {
  it('downloads every filtered row, not just the page, in the visible columns', async () => {
    const filters = [{ id: 'merchprofile', kind: 'select', values: ['Traditional'] }];
    const total = (await query(admin, { filters })).json().total;
    const res = await admin.post('/api/selfserve/export', {
      dt: month,
      filters,
      columns: ['mid', 'dba', 'tx_amt'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(res.headers['content-disposition']).toContain(`SelfServe-${month.slice(0, 7)}.xlsx`);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['MID', 'DBA', 'Volume']);
    expect(rows.length - 1).toBe(total);
    expect(total).toBeGreaterThan(10);
    expect(typeof rows[1]?.[2]).toBe('number');
    // Money is formatted as money in every row; text columns carry no number format.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    for (const r of [2, 3, sheet?.rowCount ?? 2]) {
      expect(sheet?.getRow(r).getCell(3).numFmt).toBe('#,##0.00');
      expect(sheet?.getRow(r).getCell(2).numFmt).toBeUndefined();
    }
  });

  it('refuses an unknown column before any file is sent', async () => {
    const res = await admin.post('/api/selfserve/export', { dt: month, columns: ['mid', 'password'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Unknown column "password"/);
  });
});

describe('saved reports', () => {
  const save = (c: Client, email: string, name: string, extra: Record<string, unknown> = {}) =>
    c.post('/api/savereport', {
      email,
      saveTextboxVal: name,
      filtr: JSON.stringify({
        filters: [{ id: 'dba', kind: 'text', value: 'gol' }],
        sort: [{ id: 'tx_cnt', desc: true }],
        search: '',
      }),
      visCol: JSON.stringify(['mid', 'dba', 'tx_cnt']),
      table: 'selfserve',
      ...extra,
    });

  it('saves, lists, loads, overwrites and deletes a user’s own reports', async () => {
    const sales = new Client(t.app);
    await sales.signin('sales@paydesk.local');
    expect((await save(sales, 'sales@paydesk.local', 'Golden')).json()).toEqual({
      success: true,
      reportName: 'Golden',
    });
    expect((await save(sales, 'sales@paydesk.local', 'Golden')).statusCode).toBe(200);
    const list = (
      await sales.post('/api/getallreports', { email: 'sales@paydesk.local', table: 'selfserve' })
    ).json();
    expect(list).toEqual([{ reportName: 'Golden' }]);
    const got = (
      await sales.post('/api/getreport', { email: 'sales@paydesk.local', name: 'Golden', table: 'selfserve' })
    ).json();
    expect(JSON.parse(got.filters).filters[0]).toEqual({ id: 'dba', kind: 'text', value: 'gol' });
    expect(JSON.parse(got.columns)).toEqual(['mid', 'dba', 'tx_cnt']);
    expect(
      (await sales.post('/api/getallreports', { email: 'sales@paydesk.local', table: 'residual' })).json(),
    ).toEqual([]);

    const finance = new Client(t.app);
    await finance.signin('finance@paydesk.local');
    expect(
      (
        await finance.post('/api/getallreports', { email: 'finance@paydesk.local', table: 'selfserve' })
      ).json(),
    ).toEqual([]);
    expect(
      (await finance.post('/api/getallreports', { email: 'sales@paydesk.local', table: 'selfserve' }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await finance.post('/api/getreport', {
          email: 'finance@paydesk.local',
          name: 'Golden',
          table: 'selfserve',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await finance.post('/api/deletereport', {
          email: 'sales@paydesk.local',
          name: 'Golden',
          table: 'selfserve',
        })
      ).statusCode,
    ).toBe(403);

    expect(
      (
        await sales.post('/api/deletereport', {
          email: 'sales@paydesk.local',
          name: 'Golden',
          table: 'selfserve',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await sales.post('/api/getallreports', { email: 'sales@paydesk.local', table: 'selfserve' })).json(),
    ).toEqual([]);
  });

  it('refuses an empty name and filters that are not JSON or not filters', async () => {
    const sales = new Client(t.app);
    await sales.signin('sales@paydesk.local');
    expect((await save(sales, 'sales@paydesk.local', '   ')).json().message).toMatch(
      /Give the report a name/,
    );
    expect((await save(sales, 'sales@paydesk.local', 'X', { filtr: '{not json' })).json().message).toBe(
      'filtr is not valid JSON',
    );
    expect(
      (await save(sales, 'sales@paydesk.local', 'X', { filtr: '{"filters":[{"id":"a","kind":"sql"}]}' }))
        .statusCode,
    ).toBe(400);
  });
});

describe('imports', () => {
  it('imports a Self Serve month, and importing again replaces instead of duplicating', async () => {
    const rows = (await query(admin, { pageSize: 10 })).json().rows as Array<{ mid: string }>;
    const [a, b] = rows;
    const file = await xlsx([
      ['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income'],
      [a?.mid, 12345.67, 321, 10, 1, 20.5, 2, 99.99],
      [b?.mid, '1,000.00', 10, 0, 0, 0, 0, 5],
    ]);
    const before = await count('select count(*) as n from merchant_monthly');
    for (let i = 0; i < 2; i++) {
      const res = await admin.upload(`/api/selfserve/import?dt=${month}`, file);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'Imported 2 rows', rows: 2 });
    }
    expect(await count('select count(*) as n from merchant_monthly')).toBe(before);
    const after = (await query(admin, { filters: [{ id: 'mid', kind: 'text', value: a?.mid }] })).json()
      .rows[0];
    expect(after).toMatchObject({
      tx_amt: '12345.67',
      tx_cnt: 321,
      cb_amt: '10.00',
      ref_cnt: 2,
      income: '99.99',
    });
    const income = await t.db
      .selectFrom('merchant_income as i')
      .innerJoin('merchants as m', 'm.id', 'i.merchant_id')
      .select(['i.gross', 'i.net', 'i.expenses'])
      .where('m.mid', '=', a?.mid as string)
      .where('i.month', '=', month)
      .executeTakeFirstOrThrow();
    expect(Number(income.gross) - Number(income.expenses)).toBeCloseTo(Number(income.net), 2);
  });

  it('refuses a file with any bad row, lists row numbers and reasons, and changes nothing', async () => {
    const rows = (await query(admin, { pageSize: 10 })).json().rows as Array<{ mid: string; tx_amt: string }>;
    const file = await xlsx([
      ['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income'],
      [rows[5]?.mid, 1, 1, 0, 0, 0, 0, 1],
      ['9999999999999999', 1, 1, 0, 0, 0, 0, 1],
      [rows[6]?.mid, 'lots', 1.5, 0, 0, 0, 0, 1],
    ]);
    const res = await admin.upload(`/api/selfserve/import?dt=${month}`, file);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.problems).toEqual([
      { row: 4, column: 'tx_amt', message: 'tx_amt must be a number' },
      { row: 4, column: 'tx_cnt', message: 'tx_cnt must be a whole number' },
    ]);
    const unknown = await admin.upload(
      `/api/selfserve/import?dt=${month}`,
      await xlsx([
        ['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income'],
        [rows[5]?.mid, 1, 1, 0, 0, 0, 0, 1],
        ['9999999999999999', 1, 1, 0, 0, 0, 0, 1],
      ]),
    );
    expect(unknown.json().problems).toEqual([
      { row: 3, column: 'MID', message: 'Unknown MID 9999999999999999' },
    ]);
    const unchanged = (
      await query(admin, { filters: [{ id: 'mid', kind: 'text', value: rows[5]?.mid }] })
    ).json().rows[0];
    expect(unchanged.tx_amt).toBe(rows[5]?.tx_amt);
  });

  it('refuses a wrong header row, an empty sheet and a file that is not a workbook', async () => {
    const header = await admin.upload(
      `/api/selfserve/import?dt=${month}`,
      await xlsx([
        ['MID', 'Volume'],
        ['1', 2],
      ]),
    );
    expect(header.json().problems[0].message).toMatch(/first row must be the column headers: mid, tx_amt/);
    const empty = await admin.upload(
      `/api/selfserve/import?dt=${month}`,
      await xlsx([['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income']]),
    );
    expect(empty.json().problems[0].message).toBe('The file has no rows to import');
    const junk = await admin.upload(
      `/api/selfserve/import?dt=${month}`,
      Buffer.from('this is not a zip file'),
    );
    expect(junk.statusCode).toBe(400);
    expect(junk.json().message).toMatch(/could not be read/);
  });

  it('imports a Residual export with every column back as it is (labels as headers)', async () => {
    const columns = residualTable.columns.map((c) => c.id);
    const file = await admin.post('/api/ResidualSelfServe/export', {
      dt: residualMonth,
      columns,
      filters: [{ id: 'Processor', kind: 'select', values: ['PPS'] }],
    });
    expect(file.statusCode).toBe(200);
    const before = await count(
      "select count(*) as n from residuals where processor = 'PPS' and month = ?::date",
      residualMonth,
    );
    const res = await admin.upload(`/api/ResidualSelfServe/import?dt=${residualMonth}`, file.rawPayload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toBe(before);
    expect(
      await count(
        "select count(*) as n from residuals where processor = 'PPS' and month = ?::date",
        residualMonth,
      ),
    ).toBe(before);
  });

  it('refuses imports by partner staff, whose view is one ISO', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    // Partner staff cannot hold the import right at all: the database refuses the department.
    await expect(
      t.db
        .updateTable('users')
        .set({ department: 'sales_admin' })
        .where('email', '=', 'partner@summitpayments.example')
        .execute(),
    ).rejects.toThrow();
    const res = await partner.upload(`/api/selfserve/import?dt=${month}`, await xlsx([['mid']]));
    expect(res.statusCode).toBe(403);
  });

  it('limits imports to admin and sales_admin', async () => {
    for (const email of ['finance.admin@paydesk.local', 'sales@paydesk.local', 'finance@paydesk.local']) {
      const c = new Client(t.app);
      await c.signin(email);
      const res = await c.upload(`/api/selfserve/import?dt=${month}`, await xlsx([['mid']]));
      expect(res.statusCode, email).toBe(403);
    }
  });
});

describe('upload data', () => {
  it('round-trips residuals: export a month, import it back, nothing duplicated', async () => {
    const before = await count(
      "select count(*) as n from residuals where processor = 'TSYS' and month = ?::date",
      residualMonth,
    );
    expect(before).toBeGreaterThan(0);
    const file = await admin.post('/api/residual_tsys/export', { month: residualMonth });
    expect(file.statusCode).toBe(200);
    const rows = await readXlsx(file.rawPayload);
    expect(rows.length - 1).toBe(before);
    const res = await admin.upload('/api/uploadresidual_tsys', file.rawPayload);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows).toBe(before);
    expect(
      await count(
        "select count(*) as n from residuals where processor = 'TSYS' and month = ?::date",
        residualMonth,
      ),
    ).toBe(before);
    const json = (await admin.post('/api/residual_tsys', { month: residualMonth })).json();
    expect(json).toHaveLength(before);
  });

  describe('a residual file of several batches, applied batch by batch as it is read', () => {
    // Fifteen months far in the future, every merchant in each, in MID order: every batch of about a megabyte
    // holds rows of every month, so a month whose old rows were deleted for an early batch must keep the rows the
    // earlier batches inserted.
    const months = Array.from({ length: 15 }, (_, i) => addMonths('2098-01-01', i).slice(0, 7));
    let merchants: { mid: string }[] = [];
    const residualsChecksum = async () => {
      const { rows } = await sql<{ sum: string }>`
        select md5(string_agg(to_jsonb(r)::text, '|' order by r.id)) as sum from residuals r`.execute(t.db);
      return rows[0]?.sum;
    };
    const header = uploadTypes.residual_tsys.columns.map((c) => c.header);
    const row = (m: string, mid: string, i: number) => {
      const net = ((i * 37) % 100_000) / 100 - 150;
      return [
        m,
        mid,
        `Merchant ${mid} doing business under a longer name`,
        `Agent ${i % 40}`,
        `Office ${i % 7}`,
        'Monthly',
        'ISO',
        i % 300,
        1000 + i,
        10 + (i % 90),
        20 + (i % 50),
        5 + (i % 25),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        30 + (i % 60),
        4,
        net,
        null,
        12.5,
        net,
      ];
    };
    beforeAll(async () => {
      ({ rows: merchants } = await sql<{ mid: string }>`select mid from merchants order by mid`.execute(
        t.db,
      ));
      // Old rows in one of the months: the import replaces them.
      await sql`insert into residuals (partner_id, merchant_id, month, processor, mid, dba, transactions, volume,
          income, gross, net, total_gross, total_payout, total_net, expense, profit_loss)
        select partner_id, id, '2098-02-01', 'TSYS', mid, dba, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
        from merchants order by mid limit 5`.execute(t.db);
    });

    const file = (extra: unknown[][] = []) => {
      const rows: unknown[][] = [header];
      let i = 0;
      for (const { mid } of merchants) for (const m of months) rows.push(row(m, mid, i++));
      return xlsx([...rows, ...extra]);
    };

    it('refuses a bad row at the very end and leaves every residual as it was', async () => {
      const before = await residualsChecksum();
      const unknown = await admin.upload(
        '/api/uploadresidual_tsys',
        await file([row('2098-03', 'NOPE-0000', 1)]),
      );
      expect(unknown.statusCode).toBe(400);
      const lastRow = merchants.length * months.length + 2;
      expect(unknown.json().problems).toEqual([
        { row: lastRow, column: 'MID', message: 'Unknown MID NOPE-0000' },
      ]);
      const twice = await admin.upload(
        '/api/uploadresidual_tsys',
        await file([row('2098-03', merchants[0]?.mid ?? '', 2)]),
      );
      expect(twice.statusCode).toBe(400);
      expect(twice.json().problems[0]).toMatchObject({ row: lastRow, column: 'MID' });
      expect(await residualsChecksum()).toBe(before);
      // The months the refused files wrote to tables of their own: gone with the rest.
      const { rows: left } = await sql<{ relname: string }>`
        select relname from pg_class where relname ~ '^residuals_209[89]'`.execute(t.db);
      expect(left).toEqual([]);
    });

    it('replaces exactly the months of the file with its rows, and nothing else', async () => {
      const { rows: others } = await sql<{ sum: string }>`
        select md5(string_agg(to_jsonb(r)::text, '|' order by r.id)) as sum from residuals r
        where r.month < '2098-01-01'`.execute(t.db);
      const sent = await file();
      const res = await admin.upload('/api/uploadresidual_tsys', sent);
      expect(res.statusCode, res.body).toBe(200);
      const expected = (await readXlsx(sent)).slice(1);
      expect(res.json().rows).toBe(expected.length);
      expect(expected.length).toBe(merchants.length * months.length);
      const { rows: got } = await sql<{ month: string; mid: string; agent: string; total_net: string }>`
        select to_char(month, 'YYYY-MM') as month, mid, agent, total_net::text as total_net from residuals
        where month >= '2098-01-01' order by month, mid`.execute(t.db);
      const want = expected
        .map((r) => ({
          month: String(r[0]),
          mid: String(r[1]),
          agent: String(r[3]),
          total_net: Number(r[22]).toFixed(2),
        }))
        .sort((a, b) => (a.month === b.month ? (a.mid < b.mid ? -1 : 1) : a.month < b.month ? -1 : 1));
      expect(got).toEqual(want);
      const { rows: after } = await sql<{ sum: string }>`
        select md5(string_agg(to_jsonb(r)::text, '|' order by r.id)) as sum from residuals r
        where r.month < '2098-01-01'`.execute(t.db);
      expect(after[0]?.sum).toBe(others[0]?.sum);
    });

    it("writes each batch's rows in the order of their agent: a month's agents lie in a few runs", async () => {
      // The file is in MID order, its agents taken in turn ('Agent 0' to 'Agent 39'); each batch (about a megabyte,
      // 128 KB on the embedded database: about 8 and 70 batches here) is written in agent order. Read as they lie, a
      // month's rows go back to an earlier agent about once a batch, not at every few rows as in the file.
      const inFile = new Map<string, { n: number; breaks: number; last: string }>();
      for (const r of (await readXlsx(await file())).slice(1)) {
        const m = inFile.get(String(r[0])) ?? { n: 0, breaks: 0, last: '' };
        const agent = String(r[3]).toLowerCase();
        inFile.set(String(r[0]), { n: m.n + 1, breaks: m.breaks + (agent < m.last ? 1 : 0), last: agent });
      }
      const written = await agentBreaks('2098-01-01');
      expect(written.map((m) => m.month)).toEqual(months);
      for (const m of written) {
        const sent = inFile.get(m.month);
        expect(m.n, m.month).toBe(sent?.n);
        expect(sent?.breaks ?? 0, m.month).toBeGreaterThan(m.n / 4);
        expect(m.breaks, m.month).toBeLessThan(m.n / (t.kind === 'pglite' ? 10 : 40));
      }
    });

    it('writes each month to a partition of its own: indexed, keyed, in the month totals, shut to the ISO role', async () => {
      // Every row of every month (the seed's, and the file's: 2098-02 had rows before, the others none) is in its
      // month's partition; none is left in the default one.
      const { rows: homes } = await sql<{ month: string; home: string }>`
        select distinct to_char(month, 'YYYY_MM') as month, tableoid::regclass::text as home from residuals
        order by 1`.execute(t.db);
      expect(homes.length).toBeGreaterThan(15);
      expect(homes.filter((h) => h.home !== `residuals_${h.month}`)).toEqual([]);
      // Each partition, as made by the seed, by an import's bare table or by moving rows out of the default one, has
      // every index of residuals (valid), the key to merchants, row security on, no grant to the ISO role, and the
      // smaller statistics sample on its columns and index expressions.
      const { rows: shapes } = await sql<{
        partition: string;
        indexes: number;
        valid: boolean;
        keys: number;
        shut: boolean;
        sampled: boolean;
      }>`
        select c.relname as partition,
          (select count(*)::int from pg_inherits ii join pg_index x on x.indexrelid = ii.inhrelid
             where x.indrelid = c.oid and ii.inhparent in (select indexrelid from pg_index where indrelid = 'residuals'::regclass)) as indexes,
          (select bool_and(x.indisvalid) from pg_index x where x.indrelid = c.oid) as valid,
          (select count(*)::int from pg_constraint k where k.conrelid = c.oid and k.contype = 'f'
             and k.confrelid = 'merchants'::regclass) as keys,
          c.relrowsecurity and not has_table_privilege('paydesk_iso', c.oid, 'select, insert, update, delete') as shut,
          (select bool_and(coalesce(a.attstattarget, -1) = 30) from pg_attribute a
             where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)
          and (select coalesce(bool_and(coalesce(a.attstattarget, -1) = 30), false) from pg_index x
             join pg_attribute a on a.attrelid = x.indexrelid and a.attnum > 0
             where x.indrelid = c.oid and x.indkey[a.attnum - 1] = 0) as sampled
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'residuals'::regclass order by 1`.execute(t.db);
      const { rows: parentIndexes } = await sql<{ n: number }>`
        select count(*)::int as n from pg_index where indrelid = 'residuals'::regclass`.execute(t.db);
      expect(parentIndexes[0]?.n).toBe(8);
      expect(shapes.map((p) => p.partition)).toEqual(
        expect.arrayContaining([
          'residuals_other',
          'residuals_2098_01',
          'residuals_2098_02',
          'residuals_2099_03',
        ]),
      );
      for (const p of shapes)
        expect(p, p.partition).toEqual({
          partition: p.partition,
          indexes: 8,
          valid: true,
          keys: 1,
          shut: true,
          sampled: true,
        });
      // The kept totals of the file's months equal the sums of their rows.
      type MonthSums = { month: string; partner_id: number; n: number; net: string; volume: string };
      const { rows: totals } = await sql<MonthSums>`
        select to_char(month, 'YYYY-MM') as month, partner_id, n, total_net::text as net, volume::text as volume
        from residual_month_totals where month >= '2098-01-01' order by 1, 2`.execute(t.db);
      const { rows: sums } = await sql<MonthSums>`
        select to_char(month, 'YYYY-MM') as month, partner_id, count(*)::int as n, sum(total_net)::text as net,
          sum(volume)::text as volume
        from residuals where month >= '2098-01-01' group by 1, 2 order by 1, 2`.execute(t.db);
      expect(totals.length).toBe(months.length * sums.filter((r) => r.month === months[0]).length);
      expect(totals).toEqual(sums);
      // The ISO role reads a month through residuals (its own ISO's rows only), never a partition by its name.
      const { rows: iso } = await sql<{ id: number }>`
        select partner_id as id from residuals where month = '2098-01-01' group by 1 order by count(*) desc limit 1`.execute(
        t.db,
      );
      const isoId = iso[0]?.id ?? 0;
      const asIso = (text: string) =>
        t.db.transaction().execute(async (trx) => {
          await scopeTransaction(trx, isoId);
          return (await sql.raw<{ n: number }>(text).execute(trx)).rows[0]?.n;
        });
      expect(await asIso("select count(*)::int as n from residuals where month = '2098-01-01'")).toBe(
        await count(
          "select count(*)::int as n from residuals where month = '2098-01-01' and partner_id = ?",
          isoId,
        ),
      );
      for (const table of ['residuals_2098_01', 'residuals_2098_02', 'residuals_other'])
        await expect(asIso(`select count(*)::int as n from ${table}`), table).rejects.toThrow(
          /permission denied/,
        );
      // Nor may it make, build, publish, drop or tune a partition.
      for (const call of [
        "paydesk_residual_bare('2097-01-01')",
        "paydesk_residual_partition('2097-01-01')",
        "paydesk_residual_index('residuals_build_20260101000000_000000000000', 0)",
        "paydesk_residual_publish('residuals_build_20260101000000_000000000000', '2097-01-01')",
        "paydesk_residual_drop_build('residuals_build_20260101000000_000000000000')",
        'paydesk_residual_drop_stale_builds()',
        "paydesk_residual_statistics('users')",
      ])
        await expect(asIso(`select ${call} as n`), call).rejects.toThrow(/permission denied/);
    });

    it('refuses a file of more months than an import may make, before making any', async () => {
      const months61 = Array.from({ length: 61 }, (_, i) => addMonths('2090-01-01', i).slice(0, 7));
      const res = await admin.upload(
        '/api/uploadresidual_tsys',
        await xlsx([header, ...months61.map((m, i) => row(m, merchants[0]?.mid ?? '', i))]),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().problems).toEqual([
        {
          row: 62,
          column: 'YearMonth',
          message: 'A residual file may hold at most 60 months; 2095-01 is one more',
        },
      ]);
      const { rows: left } = await sql<{ relname: string }>`
        select relname from pg_class where relname ~ '^residuals_209[0-5]'`.execute(t.db);
      expect(left).toEqual([]);
      expect(
        await count(
          "select count(*)::int as n from residuals where month >= '2090-01-01' and month < '2096-01-01'",
        ),
      ).toBe(0);
    });

    it('attaches a month as soon as the file moves on, and still takes its rows that come later', async () => {
      // Month A's first half, then twenty whole months (several batches), then A's second half: A is attached
      // while the file is read, and its last rows go in after it.
      const a = '2096-01';
      const middle = Array.from({ length: 20 }, (_, i) => addMonths('2096-02-01', i).slice(0, 7));
      const half = Math.floor(merchants.length / 2);
      const rows: unknown[][] = [header];
      let i = 0;
      for (const { mid } of merchants.slice(0, half)) rows.push(row(a, mid, i++));
      for (const m of middle) for (const { mid } of merchants) rows.push(row(m, mid, i++));
      for (const { mid } of merchants.slice(half)) rows.push(row(a, mid, i++));
      const sent = await xlsx(rows);
      expect(sent.length).toBeGreaterThan(1_000_000);
      const res = await admin.upload('/api/uploadresidual_tsys', sent);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().rows).toBe(rows.length - 1);
      const { rows: got } = await sql<{ month: string; mid: string; net: string; home: string }>`
        select to_char(month, 'YYYY-MM') as month, mid, total_net::text as net, tableoid::regclass::text as home
        from residuals where month >= '2096-01-01' and month < '2098-01-01' order by month, mid`.execute(
        t.db,
      );
      const want = rows
        .slice(1)
        .map((r) => ({
          month: String(r[0]),
          mid: String(r[1]),
          net: Number(r[22]).toFixed(2),
          home: `residuals_${String(r[0]).replace('-', '_')}`,
        }))
        .sort((x, y) => (x.month === y.month ? (x.mid < y.mid ? -1 : 1) : x.month < y.month ? -1 : 1));
      expect(got).toEqual(want);
      const { rows: totals } = await sql<{ month: string; partner_id: number; n: number; net: string }>`
        select to_char(month, 'YYYY-MM') as month, partner_id, n, total_net::text as net
        from residual_month_totals where month >= '2096-01-01' and month < '2098-01-01' order by 1, 2`.execute(
        t.db,
      );
      const { rows: sums } = await sql<{ month: string; partner_id: number; n: number; net: string }>`
        select to_char(month, 'YYYY-MM') as month, partner_id, count(*)::int as n, sum(total_net)::text as net
        from residuals where month >= '2096-01-01' and month < '2098-01-01' group by 1, 2 order by 1, 2`.execute(
        t.db,
      );
      expect(totals).toEqual(sums);
    });

    afterAll(async () => {
      await sql`delete from residuals where month >= '2096-01-01'`.execute(t.db);
    });
  });

  it('takes the spec’s JSON form of an upload, all or nothing', async () => {
    const mid = (await query(admin, { pageSize: 10 })).json().rows[0].mid;
    const good = await admin.post('/api/uploadadjustments', {
      filename: 'adj.xlsx',
      records: [['2021-03', mid, 'Credit', 'Goodwill', -25.5]],
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(await count("select count(*) as n from adjustments where month = '2021-03-01'")).toBe(1);
    const april = await count("select count(*) as n from adjustments where month = '2021-04-01'");
    const bad = await admin.post('/api/uploadadjustments', {
      filename: 'adj.xlsx',
      records: [
        ['2021-04', mid, 'Credit', 'Goodwill', 10],
        ['April', mid, 'Credit', 'Goodwill', 10],
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().problems).toEqual([
      { row: 3, column: 'YearMonth', message: 'YearMonth must be a month such as 2026-09' },
    ]);
    expect(await count("select count(*) as n from adjustments where month = '2021-04-01'")).toBe(april);
    expect(
      (await admin.post('/api/uploadadjustments', { filename: 'adj.csv', records: [] })).statusCode,
    ).toBe(400);
    // Year 0000 is no date PostgreSQL has (it failed the whole request with a 500); 3000 is past any statement.
    const years = await admin.post('/api/uploadadjustments', {
      filename: 'adj.xlsx',
      records: [
        ['2021-04', mid, 'Credit', 'Goodwill', 10],
        ['0000-01', mid, 'Credit', 'Goodwill', 10],
        ['3000-01', mid, 'Credit', 'Goodwill', 10],
      ],
    });
    expect(years.statusCode).toBe(400);
    expect(years.json().problems).toEqual([
      { row: 3, column: 'YearMonth', message: 'YearMonth must be in the years 1900 to 2999' },
      { row: 4, column: 'YearMonth', message: 'YearMonth must be in the years 1900 to 2999' },
    ]);
    expect(await count("select count(*) as n from adjustments where month = '2021-04-01'")).toBe(april);
    const residualYear = await admin.post('/api/uploadresidual_tsys', {
      filename: 'r.xlsx',
      records: [
        [
          '0000-01',
          mid,
          'Shop',
          null,
          null,
          null,
          null,
          1,
          1,
          1,
          1,
          1,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          1,
          1,
          1,
          null,
          1,
          1,
        ],
      ],
    });
    expect(residualYear.statusCode).toBe(400);
    expect(residualYear.json().problems[0]).toMatchObject({ row: 2, column: 'YearMonth' });
  });

  it('Schedule A rows name ISOs that exist', async () => {
    const res = await admin.upload(
      '/api/uploadschedulea',
      await xlsx([
        ['ISO', 'Item', 'Category', 'RateBps', 'PerItem', 'EffectiveDate'],
        ['summit payment group', 'Authorization', 'Per item', null, 0.04, '2026-01-01'],
        ['No Such ISO', 'Authorization', 'Per item', null, 0.04, '2026-01-01'],
      ]),
    );
    expect(res.json().problems).toEqual([{ row: 3, column: 'ISO', message: 'Unknown ISO No Such ISO' }]);
  });

  it('is open to admin, finance_admin and sales_admin only', async () => {
    for (const [email, status] of [
      ['sales.admin@paydesk.local', 200],
      ['finance.admin@paydesk.local', 200],
      ['sales@paydesk.local', 403],
      ['finance@paydesk.local', 403],
    ] as const) {
      const c = new Client(t.app);
      await c.signin(email);
      expect((await c.post('/api/schedulea', {})).statusCode, email).toBe(status);
      expect(
        (await c.post('/api/uploadschedulea', { filename: 'a.xlsx', records: [] })).statusCode,
        email,
      ).toBe(status === 200 ? 400 : 403);
    }
  });
});
