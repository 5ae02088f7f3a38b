import { addMonths, monthStart } from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type TestApp, testApp } from './helpers';

let t: TestApp;
let admin: Client;

interface MerchantMonth {
  month: string;
  volume: number;
  transactions: number;
  income: number;
  profile: string;
  bank: string;
  omonth: number;
  oyear: number;
  mcc: string;
  partner: string;
  age: number;
}
let rows: MerchantMonth[] = [];
const current = monthStart(new Date());
const start = addMonths(current, -12);
const end = addMonths(current, -1);

beforeAll(async () => {
  t = await testApp();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
  const raw = await sql<{
    month: string;
    volume: string;
    transactions: number;
    net: string | null;
    profile: string;
    sponsor_bank: string;
    opened_on: string;
    mcc: string;
    account_name: string;
  }>`
    select a.month::text as month, a.volume, a.transactions, i.net, m.profile, m.sponsor_bank, m.opened_on::text as opened_on, m.mcc, p.account_name
    from merchant_monthly a join merchants m on m.id = a.merchant_id join partners p on p.id = m.partner_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month`.execute(t.db);
  rows = raw.rows.map((r) => {
    const oy = Number(r.opened_on.slice(0, 4));
    const om = Number(r.opened_on.slice(5, 7));
    return {
      month: r.month,
      volume: Number(r.volume),
      transactions: r.transactions,
      income: Number(r.net ?? 0),
      profile: r.profile,
      bank: r.sponsor_bank,
      omonth: om,
      oyear: oy,
      mcc: r.mcc,
      partner: r.account_name,
      age: (Number(r.month.slice(0, 4)) - oy) * 12 + Number(r.month.slice(5, 7)) - om,
    };
  });
});
afterAll(async () => {
  await t?.close();
});

type Filters = Partial<
  Record<'profile' | 'bank' | 'omonth' | 'oyear' | 'mcc' | 'partner', Array<string | number | null>>
>;
function matching(f: Filters) {
  return rows.filter((r) =>
    (Object.entries(f) as Array<[keyof Filters, Array<string | number | null>]>).every(
      ([g, vals]) => vals.length === 0 || vals.includes(r[g] as never),
    ),
  );
}
function expectedAverage(f: Filters, from: string, to: string) {
  const sel = matching(f).filter((r) => r.month >= from && r.month <= to);
  const n = sel.length;
  const sum = (k: 'volume' | 'transactions' | 'income' | 'age') => sel.reduce((s, r) => s + r[k], 0);
  return n === 0
    ? null
    : {
        Volume: sum('volume') / n,
        Transactions: sum('transactions') / n,
        Income: sum('income') / n,
        Average_Age: sum('age') / n,
      };
}

const cases: Array<[string, Filters]> = [
  ['no filter', {}],
  ['one group', { profile: ['PayLo'] }],
  ['one group, several values', { bank: ['CBCAL', 'Esquire'] }],
  ['open month and year', { omonth: [3, 4, 5], oyear: [2021, 2022, 2023] }],
  [
    'a filter in every group',
    {
      profile: ['Traditional'],
      bank: ['CBCAL'],
      omonth: [1, 2, 3, 4, 5, 6],
      oyear: [2020, 2021, 2022, 2023, 2024],
      mcc: ['5812', '5814', '7230'],
      partner: ['Summit Payment Group', 'Harborline Merchant Services'],
    },
  ],
];

describe('financial dashboard', () => {
  for (const [name, filters] of cases) {
    it(`averages and the monthly series match independent sums: ${name}`, async () => {
      const res = await admin.post('/api/finaverage', { filters, start, end });
      expect(res.statusCode, res.body).toBe(200);
      const [filtered, everyone] = res.json().output;
      const want = expectedAverage(filters, start, end);
      expect(want).not.toBeNull();
      expect(Number(filtered.Volume)).toBeCloseTo(want?.Volume ?? 0, 1);
      expect(Number(filtered.Transactions)).toBeCloseTo(want?.Transactions ?? 0, 1);
      expect(Number(filtered.Income)).toBeCloseTo(want?.Income ?? 0, 1);
      expect(Number(filtered.Average_Age)).toBeCloseTo(want?.Average_Age ?? 0, 0);
      expect(Number(everyone.Volume)).toBeCloseTo(expectedAverage({}, start, end)?.Volume ?? 0, 1);

      const data = await admin.post('/api/findata', { filters, start: addMonths(current, -13) });
      const series = data.json().output as Array<{
        Year_Months: string;
        Volume: string;
        Transactions: number;
        Income: string;
      }>;
      expect(series).toHaveLength(14);
      for (const point of series) {
        const sel = matching(filters).filter((r) => r.month.slice(0, 7) === point.Year_Months);
        expect(Number(point.Volume)).toBeCloseTo(
          sel.reduce((s, r) => s + r.volume, 0),
          1,
        );
        expect(point.Transactions).toBe(sel.reduce((s, r) => s + r.transactions, 0));
        expect(Number(point.Income)).toBeCloseTo(
          sel.reduce((s, r) => s + r.income, 0),
          1,
        );
      }
    });
  }

  it('a clicked month averages that month alone', async () => {
    const month = addMonths(current, -3);
    const [avg] = (
      await admin.post('/api/finaverage', { filters: { profile: ['PayLo'] }, start: month, end: month })
    ).json().output;
    expect(Number(avg.Volume)).toBeCloseTo(
      expectedAverage({ profile: ['PayLo'] }, month, month)?.Volume ?? 0,
      1,
    );
  });

  it('refuses SQL text, unknown values and unknown fields', async () => {
    const sqlBody = await admin.post('/api/finaverage', { sql: 'where 1=1; drop table users', start, end });
    expect(sqlBody.statusCode).toBe(400);
    expect(sqlBody.json().message).toMatch(/SQL text is not accepted/);
    const sqlData = await admin.post('/api/findata', { sql: "Merchant_Profile = 'PayLo'" });
    expect(sqlData.statusCode).toBe(400);
    const injection = await admin.post('/api/finaverage', {
      filters: { profile: ["PayLo' or '1'='1"] },
      start,
      end,
    });
    expect(injection.statusCode).toBe(400);
    expect(injection.json().message).toBe("Unknown profile: PayLo' or '1'='1");
    expect(
      (await admin.post('/api/finaverage', { filters: { mcc: ['0000'] }, start, end })).json().message,
    ).toBe('Unknown MCC: 0000');
    expect(
      (await admin.post('/api/finaverage', { filters: { partner: ['Nobody Inc'] }, start, end })).json()
        .message,
    ).toBe('Unknown partner: Nobody Inc');
    expect(
      (await admin.post('/api/finaverage', { filters: { region: ['West'] }, start, end })).statusCode,
    ).toBe(400);
    expect((await admin.post('/api/finaverage', { filters: {}, start: end, end: start })).statusCode).toBe(
      400,
    );
  });

  it('lists the filter options of the spec', async () => {
    const res = await admin.get('/api/finoptions');
    expect(res.statusCode).toBe(200);
    const o = res.json();
    expect(Object.keys(o).sort()).toEqual([
      'bank',
      'descript',
      'mcc',
      'mid',
      'omonth',
      'oyear',
      'partner',
      'profile',
    ]);
    expect(o.profile.map((p: { Merchant_Profile: string }) => p.Merchant_Profile).sort()).toEqual(
      [...new Set(rows.map((r) => r.profile))].sort(),
    );
    expect(o.descript[0]).toHaveProperty('Description');
    expect(o.omonth.every((m: { open_month: number }) => m.open_month >= 1 && m.open_month <= 12)).toBe(true);
  });

  it('an ISO-bound user sees their ISO’s figures', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const [avg, everyone] = (await partner.post('/api/finaverage', { filters: {}, start, end })).json()
      .output;
    const want = expectedAverage({ partner: ['Summit Payment Group'] }, start, end);
    expect(Number(avg.Volume)).toBeCloseTo(want?.Volume ?? 0, 1);
    expect(everyone).toEqual(avg);
    const opts = (await partner.get('/api/finoptions')).json();
    expect(opts.partner).toEqual([{ Partner_Name: 'Summit Payment Group' }]);
  });

  it('a Self Serve import refreshes the dashboard’s monthly totals', async () => {
    const month = addMonths(current, -1);
    const before = (await admin.post('/api/findata', { filters: {}, start: month })).json().output[0];
    const page = (await admin.post('/api/selfserve/query', { dt: month, pageSize: 10 })).json();
    const top = page.rows[0];
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('S');
    ws.addRow(['mid', 'tx_amt', 'tx_cnt', 'cb_amt', 'cb_cnt', 'ref_amt', 'ref_cnt', 'income']);
    ws.addRow([
      top.mid,
      Number(top.tx_amt) + 1000,
      top.tx_cnt,
      Number(top.cb_amt),
      top.cb_cnt,
      Number(top.ref_amt),
      top.ref_cnt,
      Number(top.income),
    ]);
    const res = await admin.upload(
      `/api/selfserve/import?dt=${month}`,
      Buffer.from(await wb.xlsx.writeBuffer()),
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = (await admin.post('/api/findata', { filters: {}, start: month })).json().output[0];
    expect(Number(after.Volume) - Number(before.Volume)).toBeCloseTo(1000, 2);
  });
});
