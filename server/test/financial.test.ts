import { addMonths, finGroupOptions, finOptions, monthStart } from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { midPartsJob } from '../src/areas/financial/jobs';
import { averages, MID_PART_SIZE, redrawMidParts } from '../src/areas/financial/queries';
import type { JobContext } from '../src/platform/jobs';
import { scopeTransaction } from '../src/platform/scope';
import { Client, clearOfMidnight, type TestApp, testApp } from './helpers';

let t: TestApp;
let admin: Client;

interface MerchantMonth {
  month: string;
  /** Cents, read from the database's decimal text. */
  volume: bigint;
  transactions: number;
  income: bigint;
  profile: string;
  bank: string;
  omonth: number;
  oyear: number;
  mcc: string;
  partner: string;
  age: number;
}
let rows: MerchantMonth[] = [];
// This month and the twelve before it, read as the file starts, clear of a midnight (helpers.ts).
let current = '';
let start = '';
let end = '';

beforeAll(async () => {
  await clearOfMidnight(300);
  current = monthStart(new Date());
  start = addMonths(current, -12);
  end = addMonths(current, -1);
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
      volume: centsOf(r.volume),
      transactions: r.transactions,
      income: centsOf(r.net ?? '0'),
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
/** The oracle's own exact arithmetic, with BigInt on the raw decimal strings (not the money module). */
function centsOf(text: string): bigint {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = BigInt(whole + fraction.padEnd(2, '0'));
  return text.startsWith('-') ? -cents : cents;
}
/** `units` (of 10^-unitPlaces) ÷ n with `places` decimals, half away from zero, as text. */
function quotient(units: bigint, n: bigint, unitPlaces: number, places: number): string {
  const scaled = units * 10n ** BigInt(places);
  const divisor = n * 10n ** BigInt(unitPlaces);
  let q = scaled / divisor;
  const r = scaled % divisor;
  if (2n * (r < 0n ? -r : r) >= divisor) q += scaled < 0n ? -1n : 1n;
  const digits = (q < 0n ? -q : q).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  return `${q < 0n ? '-' : ''}${whole}${places > 0 ? `.${digits.slice(-places)}` : ''}`;
}
const decimal = (cents: bigint) => quotient(cents, 1n, 2, 2);

function expectedAverage(f: Filters, from: string, to: string) {
  const sel = matching(f).filter((r) => r.month >= from && r.month <= to);
  const n = BigInt(sel.length);
  const sum = (k: 'volume' | 'transactions' | 'income' | 'age') => sel.reduce((s, r) => s + BigInt(r[k]), 0n);
  return n === 0n
    ? null
    : {
        Volume: quotient(sum('volume'), n, 2, 2),
        Transactions: quotient(sum('transactions'), n, 0, 2),
        Income: quotient(sum('income'), n, 2, 2),
        Average_Age: quotient(sum('age'), n, 0, 1),
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
      expect(filtered).toEqual(want);
      expect(everyone).toEqual(expectedAverage({}, start, end));

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
        expect(point.Volume).toBe(decimal(sel.reduce((s, r) => s + r.volume, 0n)));
        expect(point.Transactions).toBe(sel.reduce((s, r) => s + r.transactions, 0));
        expect(point.Income).toBe(decimal(sel.reduce((s, r) => s + r.income, 0n)));
      }
    });
  }

  it('a clicked month averages that month alone', async () => {
    const month = addMonths(current, -3);
    const [avg] = (
      await admin.post('/api/finaverage', { filters: { profile: ['PayLo'] }, start: month, end: month })
    ).json().output;
    expect(avg).toEqual(expectedAverage({ profile: ['PayLo'] }, month, month));
  });

  it('averages exactly: half a cent rounds up where the float average rounded it down', () => {
    const month = (volume: string, income: string, merchants: number) => ({
      month: start,
      volume,
      transactions: 3,
      income,
      merchants,
      age_months: 5 * merchants,
    });
    const totals = [month('123456.01', '0.02', 1), month('4321.00', '0.01', 1)];
    // What the float code answered: (123456.01 + 4321.00) / 2 = 63888.505 shown as 63888.50, and 0.01.
    expect(((123456.01 + 4321.0) / 2).toFixed(2)).toBe('63888.50');
    expect(((0.02 + 0.01) / 2).toFixed(2)).toBe('0.01');
    expect(averages(totals)).toEqual({
      Volume: quotient(centsOf('123456.01') + centsOf('4321.00'), 2n, 2, 2),
      Transactions: '3.00',
      Income: quotient(centsOf('0.02') + centsOf('0.01'), 2n, 2, 2),
      Average_Age: '5.0',
    });
    expect(averages(totals).Volume).toBe('63888.51');
    expect(averages([])).toEqual({
      Volume: '0.00',
      Transactions: '0.00',
      Income: '0.00',
      Average_Age: '0.0',
    });
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

  // The oracle: each group's values as the spec lists them, from the merchants the caller's scope can see, by
  // plain statements over every row. The answer is written by the database and kept (platform/answerCache.ts),
  // so it is also read through the contract's schema, and asked again after a change.
  it('lists exactly the values of the merchants each scope sees, in order, and follows a change', async () => {
    const plain = async (partnerId: number | null) => {
      const scope = partnerId === null ? sql`true` : sql`m.partner_id = ${partnerId}`;
      const col = async <T>(q: ReturnType<typeof sql>) => (await q.execute(t.db)).rows as T[];
      return {
        profile: await col(
          sql`select distinct profile as "Merchant_Profile" from merchants m where ${scope} order by 1`,
        ),
        bank: await col(
          sql`select distinct sponsor_bank as "Bank" from merchants m where ${scope} order by 1`,
        ),
        mcc: await col(sql`select distinct mcc as "MCC" from merchants m where ${scope} order by 1`),
        descript: await col(sql`select code as "Code", description as "Description" from mcc_codes
          where code in (select mcc from merchants m where ${scope}) order by code`),
        partner: await col(sql`select distinct p.account_name as "Partner_Name" from partners p
          join merchants m on m.partner_id = p.id where ${scope} order by 1`),
        mid: await col(
          sql`select mid as "MID", dba as "DBA" from merchants m where ${scope} order by dba, mid`,
        ),
        omonth:
          await col(sql`select distinct extract(month from opened_on)::int as open_month from merchants m
          where ${scope} order by 1`),
        oyear: await col(sql`select distinct extract(year from opened_on)::int as open_year from merchants m
          where ${scope} order by 1`),
      };
    };
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const { rows: own } = await sql<{ partner_id: number }>`
      select partner_id from users where email = 'partner@summitpayments.example'`.execute(t.db);
    const partnerId = own[0]?.partner_id as number;
    const check = async (what: string) => {
      const staff = finOptions.parse((await admin.get('/api/finoptions')).json());
      expect(staff, what).toEqual(await plain(null));
      expect(staff.mid.length, what).toBeGreaterThan(100);
      const scoped = finOptions.parse((await partner.get('/api/finoptions')).json());
      expect(scoped, what).toEqual(await plain(partnerId));
      expect(scoped.mid.length, what).toBeLessThan(staff.mid.length);
      // The dashboard's call: the same groups, without the list of every MID.
      for (const [client, partnerOf] of [
        [admin, null],
        [partner, partnerId],
      ] as const) {
        const groups = (await client.get('/api/finoptions/groups')).json();
        const { mid: _mid, ...expected } = await plain(partnerOf);
        expect(groups, what).toEqual(expected);
        expect(finGroupOptions.parse(groups), what).toEqual(expected);
      }
    };
    await check('as seeded');
    await check('asked again (kept)');
    // A write to a column the answer does not read (a merchant's status, a partner's other columns) keeps it; an
    // insert keeps nothing.
    const version = async () =>
      (
        await sql<{ version: string }>`select version::text as version from answer_versions
          where name = 'fin_options'`.execute(t.db)
      ).rows[0]?.version;
    const before = await version();
    await sql`update merchants set status = status, closed_on = closed_on where partner_id = ${partnerId}`.execute(
      t.db,
    );
    await sql`update partners set account_name = account_name where id = ${partnerId}`.execute(t.db);
    expect(await version()).toBe(before);
    await sql`update merchants set mcc = mcc where false`.execute(t.db);
    expect(await version()).toBe(before);
    // Each column the filter groups read raises their version when one merchant's value changes, and so does a
    // partner's new name; a MID, a DBA or an ISO raises the MID list's part of the merchant's DBA (each change made
    // in a transaction that is rolled back).
    const rolledBack = new Error('rolled back');
    const midParts = async (db: typeof t.db) =>
      new Map(
        (
          await sql<{ part: string; version: string }>`select part, version::text as version
            from answer_part_versions where name = 'fin_mids'`.execute(db)
        ).rows.map((r) => [r.part, r.version]),
      );
    const partsBefore = await midParts(t.db);
    const raisedBy = async (change: ReturnType<typeof sql>) => {
      let inside: { groups: boolean; parts: string[] } | undefined;
      await t.db
        .transaction()
        .execute(async (trx) => {
          await change.execute(trx);
          const groups = (
            await sql<{ version: string }>`select version::text as version from answer_versions
              where name = 'fin_options'`.execute(trx)
          ).rows[0]?.version;
          const after = await midParts(trx);
          inside = {
            groups: groups !== before,
            parts: [...after.keys()].filter((k) => after.get(k) !== partsBefore.get(k)).sort(),
          };
          throw rolledBack;
        })
        .catch((e) => {
          if (e !== rolledBack) throw e;
        });
      return inside as { groups: boolean; parts: string[] };
    };
    // Small parts (seven merchants each), so a change names one part among many.
    expect(await redrawMidParts(t.db, 7)).toBe(true);
    await check('in parts of seven merchants');
    const partOf = async (dba: string) =>
      (
        await sql<{ part: string }>`select part from fin_mid_bounds where bound <= ${dba}
          order by bound desc limit 1`.execute(t.db)
      ).rows[0]?.part as string;
    const one = sql`(select min(id) from merchants where partner_id = ${partnerId})`;
    const { rows: oneRow } = await sql<{ dba: string }>`select dba from merchants where id = ${one}`.execute(
      t.db,
    );
    const itsPart = await partOf(oneRow[0]?.dba as string);
    const { rows: lastRow } = await sql<{ part: string }>`select part from fin_mid_bounds
      order by bound desc limit 1`.execute(t.db);
    for (const [column, value, groups, parts] of [
      ['mid', sql`mid || 'X'`, false, [itsPart]],
      ['dba', sql`'zzzz' || dba`, false, [...new Set([itsPart, lastRow[0]?.part])].sort()],
      ['mcc', sql`(select min(code) from mcc_codes where code <> merchants.mcc)`, true, []],
      ['profile', sql`case when profile = 'Unassigned' then 'PayLo' else 'Unassigned' end`, true, []],
      ['sponsor_bank', sql`case when sponsor_bank = 'PPS' then 'CBCAL' else 'PPS' end`, true, []],
      ['opened_on', sql`opened_on - 1`, true, []],
      ['partner_id', sql`(select min(id) from partners where id <> ${partnerId})`, true, [itsPart]],
    ] as const) {
      expect(
        await raisedBy(sql`update merchants set ${sql.ref(column)} = ${value} where id = ${one}`),
        column,
      ).toEqual({ groups, parts });
    }
    expect(await raisedBy(sql`update merchants set status = status where id = ${one}`)).toEqual({
      groups: false,
      parts: [],
    });
    expect(
      await raisedBy(sql`update partners set account_name = account_name || 'x' where id = ${partnerId}`),
    ).toEqual({ groups: true, parts: [] });
    expect(await version()).toBe(before);
    // A merchant renamed to sort first, and opened in a year no other merchant opened in.
    const { rows: picked } = await sql<{ id: number; dba: string; opened_on: string }>`
      select id, dba, opened_on::text as opened_on from merchants where partner_id = ${partnerId}
      order by id limit 1`.execute(t.db);
    const m = picked[0] as { id: number; dba: string; opened_on: string };
    try {
      await sql`update merchants set dba = ${'  AAA renamed'}, opened_on = '1999-02-03' where id = ${m.id}`.execute(
        t.db,
      );
      await check('after a change');
      const staff = finOptions.parse((await admin.get('/api/finoptions')).json());
      expect(staff.mid[0]?.DBA).toBe('  AAA renamed');
      expect(staff.oyear[0]?.open_year).toBe(1999);
    } finally {
      await sql`update merchants set dba = ${m.dba}, opened_on = ${m.opened_on}::date where id = ${m.id}`.execute(
        t.db,
      );
    }
    await check('changed back');
    expect(await redrawMidParts(t.db)).toBe(true);
    await check('in parts as drawn for the data');
  });

  // The hourly job draws the MID list's bounds again only when a part has outgrown them (or there are far too many
  // parts); the list answered is the same either way.
  it('the MID list job draws the parts again only when they have outgrown their size', async () => {
    const ctx = {
      db: t.db,
      id: 'test',
      startedBy: null,
      attempt: 1,
      lastAttempt: true,
      progress: () => {},
      send: async () => 'none',
    } as unknown as JobContext;
    const before = (await admin.get('/api/finoptions')).json();
    const parts = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from fin_mid_bounds`.execute(t.db)).rows[0]?.n;
    const { rows: counted } = await sql<{ n: number }>`select count(*)::int as n from merchants`.execute(
      t.db,
    );
    const merchants = counted[0]?.n ?? 0;
    expect(merchants).toBeGreaterThan(100);
    const drawn = Math.floor((merchants - 1) / MID_PART_SIZE) + 1;
    expect(await midPartsJob.run(ctx, {})).toBe('Every part of the MID list is within its size');
    expect(await parts()).toBe(drawn);
    // A part that has outgrown twice its size (the merchants in parts of a quarter of them): drawn again.
    const quarter = Math.ceil(merchants / 4);
    expect(await redrawMidParts(t.db, quarter)).toBe(drawn === 1);
    expect(await parts()).toBe(drawn === 1 ? 4 : drawn);
    expect((await admin.get('/api/finoptions')).json()).toEqual(before);
    // Parts of two merchants (fewer where a DBA repeats: a bound is a DBA): far too many for the job's size, which
    // draws them again.
    expect(await redrawMidParts(t.db, 2)).toBe(true);
    expect(await parts()).toBeGreaterThan(merchants / 4);
    expect((await admin.get('/api/finoptions')).json()).toEqual(before);
    expect(await midPartsJob.run(ctx, {})).toBe('Divided the MID list into parts again');
    expect(await parts()).toBe(drawn);
    expect((await admin.get('/api/finoptions')).json()).toEqual(before);
    // An ISO-bound request's role may read the bounds, never draw or write them.
    const asIso = (text: string) =>
      t.db.transaction().execute(async (trx) => {
        await scopeTransaction(trx, 1);
        return (await sql.raw<{ n: number }>(text).execute(trx)).rows[0]?.n;
      });
    expect(await asIso('select count(*)::int as n from fin_mid_bounds')).toBe(drawn);
    for (const text of [
      'select paydesk_fin_mid_parts(2) as n',
      "delete from fin_mid_bounds where bound <> ''",
    ])
      await expect(asIso(text), text).rejects.toThrow(/permission denied/);
    expect(await parts()).toBe(drawn);
  });

  it('an ISO-bound user sees their ISO’s figures', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const [avg, everyone] = (await partner.post('/api/finaverage', { filters: {}, start, end })).json()
      .output;
    const want = expectedAverage({ partner: ['Summit Payment Group'] }, start, end);
    expect(avg).toEqual(want);
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
    expect(centsOf(after.Volume) - centsOf(before.Volume)).toBe(100_000n);
  });
});
