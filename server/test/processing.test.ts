import zlib from 'node:zlib';
import {
  addMonths,
  budgetPeriod,
  monthStart,
  type ProcessingInfo,
  quarterMonths,
  reportQuarters,
  todayIso,
} from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_JOB, SUBSCRIPTIONS_JOB } from '../src/areas/processing/jobs';
import { REPORT_SHEETS } from '../src/areas/processing/report';
import type { Db } from '../src/db/connect';
import type { Jobs } from '../src/platform/jobs';
import { addUser, Client, startTestJobs, type TestApp, testApp } from './helpers';

let t: TestApp;
let worker: Jobs;
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

const today = todayIso();
const thisYear = Number(today.slice(0, 4));
const thisMonth = monthStart(new Date());

beforeAll(async () => {
  t = await testApp();
  // A worker with the product's jobs; the app itself only queues.
  worker = await startTestJobs(t.connected, { work: true });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Rows of plain SQL, numbers as JS numbers (the oracle's own reading of the raw tables). */
async function rowsOf<R>(db: Db, query: ReturnType<typeof sql>): Promise<R[]> {
  return (await query.execute(db)).rows as R[];
}
const keyed = <R>(rows: R[], key: (r: R) => string) => new Map(rows.map((r) => [key(r), r]));

/** The merchant-months of a year through `through`, summed by bank or profile, from merchant_monthly. */
async function expectedMonthly(
  by: 'sponsor_bank' | 'profile',
  year: number,
  through: string,
  partnerId?: number,
) {
  const scope = partnerId === undefined ? sql`` : sql`and m.partner_id = ${partnerId}`;
  return rowsOf<{ key: string; mth: string; volume: string; tx: string }>(
    t.db,
    sql`select m.${sql.raw(by)} as key, a.month::text as mth, sum(a.volume)::text as volume, sum(a.transactions)::text as tx
        from merchant_monthly a join merchants m on m.id = a.merchant_id
        where a.month >= ${`${year}-01-01`}::date and a.month <= ${through}::date ${scope}
        group by 1, 2`,
  );
}

async function dayVolumes(from: string, to: string, partnerId?: number) {
  const scope = partnerId === undefined ? sql`` : sql`and m.partner_id = ${partnerId}`;
  const rows = await rowsOf<{ day: string; volume: string }>(
    t.db,
    sql`select d.day::text as day, sum(d.volume)::text as volume
        from merchant_daily d join merchants m on m.id = d.merchant_id
        where d.day >= ${from}::date and d.day <= ${to}::date ${scope} group by d.day`,
  );
  return new Map(rows.map((r) => [r.day, Number(r.volume)]));
}

async function budgetRows(year: number) {
  return rowsOf<{ bank: string; mth: string; budget: string }>(
    t.db,
    sql`select bank, month::text as mth, budget::text as budget from processing_budgets
        where month >= ${`${year}-01-01`}::date and month <= ${`${year}-12-01`}::date`,
  );
}

const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A quotient the server rounds to the cent: within half a cent of the exact value. toBeCloseTo's bound is strict,
 * and a quotient that ends in exactly half a cent (as the data of some days do) is rounded up.
 */
function expectCent(actual: number, exact: number, label?: string) {
  expect(Math.abs(actual - exact), label).toBeLessThanOrEqual(0.005 + 1e-6);
}

describe('/api/processinginfo', () => {
  it('the current year (live): the seven lists match sums of the raw rows', async () => {
    const res = await (await as('admin@paydesk.local')).post('/api/processinginfo', {
      dt: today,
      historic: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as ProcessingInfo;

    const banks = await expectedMonthly('sponsor_bank', thisYear, thisMonth);
    expect(info.monthly).toHaveLength(banks.length);
    const byBank = keyed(banks, (r) => `${r.key} ${r.mth}`);
    for (const row of info.monthly) {
      const want = byBank.get(`${row.bank} ${row.mth}`);
      expect(want, `${row.bank} ${row.mth}`).toBeDefined();
      expect(row.txamt).toBeCloseTo(Number(want?.volume), 2);
      expect(row.txct).toBe(Number(want?.tx));
    }
    const profiles = keyed(await expectedMonthly('profile', thisYear, thisMonth), (r) => `${r.key} ${r.mth}`);
    expect(info.byProfile).toHaveLength(profiles.size);
    for (const row of info.byProfile) {
      expect(row.txamt).toBeCloseTo(Number(profiles.get(`${row.processor} ${row.mth}`)?.volume), 2);
    }

    // Daily rows: the month's days through the last one with figures; the benchmark 364 days back.
    const period = budgetPeriod(thisMonth);
    const days = await dayVolumes(period.start, period.end);
    const bench = await dayVolumes(shift(period.start, -364), shift(period.end, -364));
    const budgets = await budgetRows(thisYear);
    const monthBudget = budgets.filter((b) => b.mth === thisMonth).reduce((s, b) => s + Number(b.budget), 0);
    expect(monthBudget).toBeGreaterThan(0);
    // Merchants processing in a month: its merchant-months.
    const merchantsIn = new Map(
      (
        await rowsOf<{ mth: string; n: number }>(
          t.db,
          sql`select month::text as mth, count(*)::int as n from merchant_monthly
              where month >= ${addMonths(thisMonth, -13)}::date group by month`,
        )
      ).map((r) => [r.mth, r.n]),
    );
    expect(info.daily.map((d) => d.day)).toEqual([...days.keys()].sort());
    for (const d of info.daily) {
      const benchDay = shift(d.day, -364);
      const benchamt = bench.get(benchDay) ?? Number.NaN;
      expect(d.txamt).toBeCloseTo(days.get(d.day) ?? 0, 2);
      expect(d.benchamt).toBeCloseTo(benchamt, 2);
      expectCent(d.budgetamt, monthBudget / period.days);
      const then = merchantsIn.get(`${benchDay.slice(0, 7)}-01`) ?? Number.NaN;
      expect(d.benchamtbymerch).toBeCloseTo(
        (benchamt / then) * (merchantsIn.get(thisMonth) ?? Number.NaN),
        1,
      );
    }
    // On a month's first day before its first figures the list is empty (the day list above says so).
    for (const d of info.daily.slice(0, 1))
      expect(Object.keys(d).sort()).toEqual(
        ['benchamt', 'benchamtbymerch', 'budgetamt', 'day', 'txamt'].sort(),
      );

    // Average daily volume: a month's volume over its days (the month in progress: its days with figures).
    const monthTotals = new Map<string, number>();
    for (const b of banks) monthTotals.set(b.mth, (monthTotals.get(b.mth) ?? 0) + Number(b.volume));
    expect(info.averages.map((a) => a.mth)).toEqual([...monthTotals.keys()].sort());
    for (const a of info.averages) {
      const want = monthTotals.get(a.mth) ?? 0;
      const n = a.mth === thisMonth ? days.size : budgetPeriod(a.mth).days;
      expect(a.days).toBe(n);
      // A month in progress with no day of figures yet (its first day) averages nothing.
      expectCent(a.avgamt, n > 0 ? want / n : 0);
    }

    expect(info.monthBudget).toEqual([{ start: period.start, end: period.end, budget: monthBudget }]);
    expect(info.yearlyBudget).toHaveLength(budgets.length);
    const budgetOf = keyed(budgets, (b) => `${b.bank} ${b.mth}`);
    for (const b of info.yearlyBudget)
      expect(b.budget).toBe(Number(budgetOf.get(`${b.bank} ${b.mth}`)?.budget));
    for (const p of info.bankPeriods) {
      expect(banks.some((b) => b.key === p.bank)).toBe(true);
      expect(p.start <= p.end).toBe(true);
    }

    // The headline: month to date is the sum of the month's days; trending follows the domain rule.
    const mtd = [...days.values()].reduce((s, v) => s + v, 0);
    expect(info.headline.month).toBe(thisMonth);
    expect(info.headline.monthToDate).toBeCloseTo(mtd, 2);
    expect(info.headline.budget).toBeCloseTo(monthBudget, 2);
    if (info.headline.basis === 'month') {
      expect(info.headline.trending).toBeCloseTo((mtd / days.size) * period.days, 1);
    }
    expect(info.headline.budgetPercent).toBeCloseTo((info.headline.trending / monthBudget) * 100, 0);
  });

  it('agrees with the Financial dashboard and Self Serve for the same month', async () => {
    const admin = await as('admin@paydesk.local');
    const info = (
      await admin.post('/api/processinginfo', { dt: today, historic: false })
    ).json() as ProcessingInfo;
    const month = addMonths(thisMonth, -1);
    const fin = (await admin.post('/api/findata', { filters: {}, start: addMonths(thisMonth, -13) })).json();
    const point = fin.output.find((p: { Year_Months: string }) => p.Year_Months === month.slice(0, 7));
    const selfServe = (await admin.post('/api/selfserve', { dt: month })).json() as {
      tx_amt: string | number;
    }[];
    const selfServeTotal = selfServe.reduce((s, r) => s + Number(r.tx_amt), 0);
    const processing = (list: { mth: string; txamt: number }[]) =>
      list.filter((r) => r.mth === month).reduce((s, r) => s + r.txamt, 0);
    if (month.startsWith(String(thisYear))) {
      expect(processing(info.monthly)).toBeCloseTo(Number(point.Volume), 1);
      expect(processing(info.byProfile)).toBeCloseTo(Number(point.Volume), 1);
      expect(processing(info.averages)).toBeCloseTo(Number(point.Volume), 1);
    }
    expect(Number(point.Volume)).toBeCloseTo(selfServeTotal, 1);
    // Last month from its own year's dashboard (January's previous month is in last year's).
    const year = Number(month.slice(0, 4));
    const other = (
      await admin.post('/api/processinginfo', {
        dt: year === thisYear ? today : `${year}-12-31`,
        historic: year !== thisYear,
      })
    ).json() as ProcessingInfo;
    expect(processing(other.monthly)).toBeCloseTo(selfServeTotal, 1);
  });

  it('a historic year: all twelve months, December as the dashboard month, complete', async () => {
    const year = thisYear - 2;
    const res = await (await as('finance@paydesk.local')).post('/api/processinginfo', {
      dt: `${year}-06-15`,
      historic: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as ProcessingInfo;
    const banks = await expectedMonthly('sponsor_bank', year, `${year}-12-01`);
    expect(new Set(info.monthly.map((r) => r.mth)).size).toBe(12);
    expect(info.monthly.reduce((s, r) => s + r.txamt, 0)).toBeCloseTo(
      banks.reduce((s, r) => s + Number(r.volume), 0),
      0,
    );
    const december = banks.filter((b) => b.mth === `${year}-12-01`).reduce((s, b) => s + Number(b.volume), 0);
    expect(info.headline).toMatchObject({ month: `${year}-12-01`, basis: 'complete', asOf: `${year}-12-31` });
    expect(info.headline.monthToDate).toBeCloseTo(december, 2);
    expect(info.headline.trending).toBeCloseTo(december, 2);
    expect(info.averages).toHaveLength(12);
    // Every month of a past year is whole, December too, though its days are no longer kept one by one.
    for (const a of info.averages) {
      const want = banks.filter((b) => b.mth === a.mth).reduce((s, b) => s + Number(b.volume), 0);
      expect(a.days, a.mth).toBe(budgetPeriod(a.mth).days);
      expectCent(a.avgamt, want / a.days, a.mth);
    }
  });

  it('an ISO-bound user sees their ISO’s volume and no budgets', async () => {
    const res = await (await as('partner@summitpayments.example')).post('/api/processinginfo', {
      dt: today,
      historic: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as ProcessingInfo;
    const { partner_id } = await t.db
      .selectFrom('users')
      .select('partner_id')
      .where('email', '=', 'partner@summitpayments.example')
      .executeTakeFirstOrThrow();
    const own = await expectedMonthly('sponsor_bank', thisYear, thisMonth, partner_id ?? -1);
    expect(own.length).toBeGreaterThan(0);
    expect(info.monthly.reduce((s, r) => s + r.txamt, 0)).toBeCloseTo(
      own.reduce((s, r) => s + Number(r.volume), 0),
      1,
    );
    const days = await dayVolumes(thisMonth, today, partner_id ?? -1);
    for (const d of info.daily) expect(d.txamt).toBeCloseTo(days.get(d.day) ?? 0, 2);
    expect(info.yearlyBudget).toEqual([]);
    expect(info.monthBudget).toEqual([]);
    expect(info.headline.budgetPercent).toBeNull();
  });

  it('refuses years before 2020 or after this one, and bad input', async () => {
    const admin = await as('admin@paydesk.local');
    for (const body of [
      { dt: '2019-12-31', historic: true },
      { dt: `${thisYear + 1}-01-01`, historic: false },
      { dt: 'yesterday', historic: false },
      { dt: today },
      { dt: today, historic: false, extra: 1 },
    ]) {
      const res = await admin.post('/api/processinginfo', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });
});

describe('/api/getActivation', () => {
  it('merchants activated per month of the year, through dt’s month, against a plain count', async () => {
    const want = await rowsOf<{ mth: string; cnt: number }>(
      t.db,
      sql`select to_char(activated_on, 'YYYY-MM-01') as mth, count(*)::int as cnt from merchants
          where activated_on >= ${`${thisYear}-01-01`}::date and activated_on <= ${today}::date group by 1`,
    );
    const res = await (await as('sales@paydesk.local')).post('/api/getActivation', { dt: today });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json() as { mth: string; cnt: number }[];
    expect(rows.map((r) => r.mth)).toEqual(
      Array.from({ length: Number(thisMonth.slice(5, 7)) }, (_, i) => addMonths(`${thisYear}-01-01`, i)),
    );
    const counts = keyed(want, (r) => r.mth);
    for (const r of rows) expect(r.cnt, r.mth).toBe(counts.get(r.mth)?.cnt ?? 0);
    expect(rows.reduce((s, r) => s + r.cnt, 0)).toBeGreaterThan(0);

    const partner = await as('partner@summitpayments.example');
    const scoped = (await partner.post('/api/getActivation', { dt: today })).json() as { cnt: number }[];
    const [own] = await rowsOf<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from merchants m join users u on u.partner_id = m.partner_id
          where u.email = 'partner@summitpayments.example'
            and m.activated_on >= ${`${thisYear}-01-01`}::date and m.activated_on <= ${today}::date`,
    );
    expect(scoped.reduce((s, r) => s + r.cnt, 0)).toBe(own?.n);
  });
});

describe('budgets', () => {
  it('finance_admin and admin edit a bank’s month budget, audited; others are refused', async () => {
    const mth = addMonths(thisMonth, 1).startsWith(String(thisYear)) ? addMonths(thisMonth, 1) : thisMonth;
    const before = await t.db
      .selectFrom('processing_budgets')
      .select('budget')
      .where('bank', '=', 'Esquire')
      .where('month', '=', mth)
      .executeTakeFirst();
    for (const email of [
      'finance@paydesk.local',
      'sales.admin@paydesk.local',
      'partner@summitpayments.example',
    ]) {
      const res = await (await as(email)).post('/api/app/processing/budget', {
        bank: 'Esquire',
        mth,
        budget: 1,
      });
      expect(res.statusCode, email).toBe(403);
    }
    const fa = await as('finance.admin@paydesk.local');
    const ok = await fa.post('/api/app/processing/budget', { bank: 'Esquire', mth, budget: 12_345_678.9 });
    expect(ok.statusCode, ok.body).toBe(200);
    const stored = await t.db
      .selectFrom('processing_budgets')
      .select(['budget', 'updated_by'])
      .where('bank', '=', 'Esquire')
      .where('month', '=', mth)
      .executeTakeFirstOrThrow();
    expect(Number(stored.budget)).toBe(12_345_678.9);
    expect(stored.updated_by).toBe('finance.admin@paydesk.local');
    const entry = await t.db
      .selectFrom('audit_log')
      .select(['actor_email', 'subject', 'details'])
      .where('action', '=', 'processing.budget')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.actor_email).toBe('finance.admin@paydesk.local');
    const details = typeof entry.details === 'string' ? JSON.parse(entry.details) : entry.details;
    expect(details).toMatchObject({ bank: 'Esquire', month: mth, new: '12345678.90' });
    expect(Number(details.old)).toBe(Number(before?.budget ?? Number.NaN));

    const listed = (await fa.get(`/api/app/processing/budgets?year=${mth.slice(0, 4)}`)).json();
    expect(listed.canEdit).toBe(true);
    expect(listed.rows).toContainEqual({ bank: 'Esquire', mth, budget: 12_345_678.9 });
    const finance = (
      await (await as('finance@paydesk.local')).get(`/api/app/processing/budgets?year=${thisYear}`)
    ).json();
    expect(finance.canEdit).toBe(false);
    expect(
      (await (await as('partner@summitpayments.example')).get(`/api/app/processing/budgets?year=${thisYear}`))
        .statusCode,
    ).toBe(403);

    // The dashboard's yearly budget rows carry the new figure.
    const info = (
      await (await as('admin@paydesk.local')).post('/api/processinginfo', { dt: today, historic: false })
    ).json() as ProcessingInfo;
    expect(info.yearlyBudget).toContainEqual({ bank: 'Esquire', mth, budget: 12_345_678.9 });

    const admin = await as('admin@paydesk.local');
    for (const body of [
      { bank: 'Nowhere', mth, budget: 1 },
      { bank: 'Esquire', mth: `${thisYear}-01-15`, budget: 1 },
      { bank: 'Esquire', mth, budget: -5 },
      { bank: 'Esquire', mth, budget: 1.234 },
      { bank: 'Esquire', mth: '2019-12-01', budget: 1 },
    ]) {
      const res = await admin.post('/api/app/processing/budget', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const after = await t.db
      .selectFrom('processing_budgets')
      .select('budget')
      .where('bank', '=', 'Esquire')
      .where('month', '=', mth)
      .executeTakeFirstOrThrow();
    expect(Number(after.budget)).toBe(12_345_678.9);
  });
});

/** The text each page of a pdfkit PDF draws (its content streams inflated, hex strings decoded), in order. */
function pdfPages(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const pages = [...raw.matchAll(/\/Type \/Page\b[^s][\s\S]*?\/Contents (\d+) 0 R/g)].map((m) =>
    Number(m[1]),
  );
  return pages.map((obj) => {
    const at = raw.indexOf(`\n${obj} 0 obj`);
    const start = raw.indexOf('stream\n', at) + 'stream\n'.length;
    const end = raw.indexOf('\nendstream', start);
    const body = pdf.subarray(start, end);
    const content = raw.slice(at, start).includes('/FlateDecode') ? zlib.inflateSync(body) : body;
    return [...content.toString('latin1').matchAll(/<([0-9a-f]+)>/gi)]
      .map((m) => Buffer.from(m[1] as string, 'hex').toString('latin1'))
      .join('');
  });
}

describe('report e-mails', () => {
  const [latest, , older] = reportQuarters();

  it('refuses a rec that is not the signed-in user, and quarters with no whole month; queues nothing', async () => {
    const finance = await as('finance@paydesk.local');
    const jobsBefore = await jobCount(REPORT_JOB);
    const someoneElse = await finance.post('/api/email', {
      rec: 'admin@paydesk.local',
      yr: latest?.yr,
      qr: latest?.qr,
    });
    expect(someoneElse.statusCode).toBe(403);
    expect(someoneElse.json().message).toMatch(/signed-in user/);
    for (const body of [
      { rec: 'finance@paydesk.local', yr: thisYear + 1, qr: 1 },
      { rec: 'finance@paydesk.local', yr: 2019, qr: 4 },
      { rec: 'finance@paydesk.local', yr: latest?.yr, qr: 5 },
      { rec: 'not an address', yr: latest?.yr, qr: latest?.qr },
    ]) {
      expect((await finance.post('/api/email', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const q = Math.floor(new Date().getUTCMonth() / 3) + 1;
    if (new Date().getUTCMonth() % 3 === 0) {
      const future = await finance.post('/api/email', { rec: 'finance@paydesk.local', yr: thisYear, qr: q });
      expect(future.statusCode).toBe(400);
    }
    expect(await jobCount(REPORT_JOB)).toBe(jobsBefore);
  });

  it('mails the requester a workbook (one sheet per list) and a PDF (one page per section)', async () => {
    if (!older) throw new Error('no report quarter');
    const email = 'report.reader@paydesk.local';
    await addUser(t.db, email, 'finance');
    const c = new Client(t.app);
    await c.signin(email);
    // The address as typed with capitals is still the user's own.
    const res = await c.post('/api/email', { rec: email.toUpperCase(), yr: older.yr, qr: older.qr });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().jobId).toBeTruthy();

    const mail = await until(
      'the report mail',
      () => t.db.selectFrom('outbox').selectAll().where('to_address', '=', email).executeTakeFirst(),
      120_000,
    );
    expect(mail.subject).toBe(`Processing report ${older.label}`);
    const files = await t.db
      .selectFrom('outbox_attachments as a')
      .innerJoin('documents as d', 'd.id', 'a.document_id')
      .select(['d.filename', 'd.content', 'd.partner_id'])
      .where('a.outbox_id', '=', mail.id)
      .orderBy('a.position')
      .execute();
    expect(files.map((f) => f.filename)).toEqual([
      `processing-${older.yr}-Q${older.qr}.xlsx`,
      `processing-${older.yr}-Q${older.qr}.pdf`,
    ]);
    expect(files.every((f) => f.partner_id === null)).toBe(true);

    // The workbook: the sheets in order, the quarter's monthly volume equal to the raw rows' sum.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(files[0]?.content as Uint8Array) as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(REPORT_SHEETS);
    const months = quarterMonths(older);
    const [raw] = await rowsOf<{ volume: string; tx: string }>(
      t.db,
      sql`select sum(volume)::text as volume, sum(transactions)::text as tx from merchant_monthly
          where month >= ${older.start}::date and month <= ${older.through}::date`,
    );
    const monthly = book.getWorksheet('Monthly by bank');
    expect(monthly?.getRow(1).values).toEqual([undefined, 'bank', 'mth', 'txamt', 'txct']);
    let volume = 0;
    let tx = 0;
    const seen = new Set<string>();
    monthly?.eachRow((row, n) => {
      if (n === 1) return;
      seen.add(String(row.getCell(2).value));
      volume += Number(row.getCell(3).value);
      tx += Number(row.getCell(4).value);
    });
    expect([...seen].sort()).toEqual(months);
    expect(volume).toBeCloseTo(Number(raw?.volume), 1);
    expect(tx).toBe(Number(raw?.tx));
    const [activated] = await rowsOf<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from merchants where activated_on >= ${older.start}::date
          and activated_on < (${older.through}::date + interval '1 month')`,
    );
    let activations = 0;
    book.getWorksheet('Activations')?.eachRow((row, n) => {
      if (n > 1) activations += Number(row.getCell(2).value);
    });
    expect(activations).toBe(activated?.n);

    // The PDF: five pages, one per dashboard section, each titled.
    const pdf = Buffer.from(files[1]?.content as Uint8Array);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = pdfPages(pdf);
    expect(pages).toHaveLength(5);
    const titles = [
      'Daily volume and budget',
      'Monthly volume by bank',
      'Monthly average daily volume',
      'Monthly volume by profile',
      'Activations per month',
    ];
    for (const [i, title] of titles.entries()) {
      expect(pages[i]).toContain(title);
      expect(pages[i]).toContain(`page ${i + 1} of 5`);
    }

    // The request is a job of its own, queued by the requester, completed.
    expect(await until('the report job', () => finished(res.json().jobId))).toBe('completed');
    const [queued] = await rowsOf<{ by: string }>(
      t.db,
      sql`select data->>'startedBy' as by from pgboss.job where id::text = ${res.json().jobId}
          union all select data->>'startedBy' from pgboss.archive where id::text = ${res.json().jobId}`,
    );
    const { id: userId } = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(Number(queued?.by)).toBe(userId);
  });

  it('a partner user’s report holds their ISO’s figures only, without budgets', async () => {
    if (!older) throw new Error('no report quarter');
    const email = 'partner@summitpayments.example';
    const res = await (await as(email)).post('/api/email', { rec: email, yr: older.yr, qr: older.qr });
    expect(res.statusCode, res.body).toBe(200);
    expect(await until('the partner report job', () => finished(res.json().jobId), 120_000)).toBe(
      'completed',
    );
    const mail = await t.db
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', email)
      .where('subject', '=', `Processing report ${older.label}`)
      .executeTakeFirstOrThrow();
    const files = await t.db
      .selectFrom('outbox_attachments as a')
      .innerJoin('documents as d', 'd.id', 'a.document_id')
      .select(['d.content'])
      .where('a.outbox_id', '=', mail.id)
      .orderBy('a.position')
      .execute();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(files[0]?.content as Uint8Array) as unknown as ArrayBuffer);
    const [raw] = await rowsOf<{ volume: string; partner: string }>(
      t.db,
      sql`select sum(a.volume)::text as volume, min(p.account_name) as partner
          from merchant_monthly a join merchants m on m.id = a.merchant_id
          join users u on u.partner_id = m.partner_id join partners p on p.id = m.partner_id
          where u.email = ${email} and a.month >= ${older.start}::date and a.month <= ${older.through}::date`,
    );
    let volume = 0;
    book.getWorksheet('Monthly by bank')?.eachRow((row, n) => {
      if (n > 1) volume += Number(row.getCell(3).value);
    });
    expect(volume).toBeGreaterThan(0);
    expect(volume).toBeCloseTo(Number(raw?.volume), 1);
    expect(book.getWorksheet('Budgets')?.rowCount).toBe(1);
    expect(book.getWorksheet('Month budget')?.rowCount).toBe(1);
    const pages = pdfPages(Buffer.from(files[1]?.content as Uint8Array));
    expect(pages).toHaveLength(5);
    expect(pages[0]).toContain(raw?.partner);
    expect(pages[0]).toContain('Daily volume,');
    expect(pages.join('')).not.toMatch(/budget/i);
  });
});

/** A job's state once it has finished (completed or failed), else null. */
async function finished(id: string): Promise<string | null> {
  const [row] = await rowsOf<{ state: string }>(
    t.db,
    sql`select state::text as state from pgboss.job where id::text = ${id}
        union all select state::text from pgboss.archive where id::text = ${id}`,
  );
  return row && ['completed', 'failed'].includes(row.state) ? row.state : null;
}

async function jobCount(name: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    t.db,
    sql`select ((select count(*) from pgboss.job where name = ${name}) + (select count(*) from pgboss.archive where name = ${name}))::int as n`,
  );
  return row?.n ?? 0;
}

describe('scheduled reports', () => {
  it('subscribe, list, refuse a duplicate, cancel only one’s own', async () => {
    const fa = await as('finance.admin@paydesk.local');
    const sub = await fa.post('/api/app/processing/subscribe', { frequency: 'monthly' });
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json()).toMatchObject({ frequency: 'monthly', lastSent: null });
    expect((await fa.post('/api/app/processing/subscribe', { frequency: 'monthly' })).statusCode).toBe(400);
    expect((await fa.post('/api/app/processing/subscribe', { frequency: 'weekly' })).statusCode).toBe(400);
    const listed = (await fa.get('/api/app/processing/subscriptions')).json();
    expect(listed.map((s: { frequency: string }) => s.frequency)).toEqual(['monthly']);
    const other = await as('finance@paydesk.local');
    expect((await other.get('/api/app/processing/subscriptions')).json()).toEqual([]);
    expect((await other.post('/api/app/processing/unsubscribe', { id: sub.json().id })).statusCode).toBe(404);
    // Partner staff subscribe too (their reports hold their ISO's figures) and see only their own.
    const partner = await as('partner@summitpayments.example');
    const own = await partner.post('/api/app/processing/subscribe', { frequency: 'quarterly' });
    expect(own.statusCode, own.body).toBe(200);
    expect((await partner.get('/api/app/processing/subscriptions')).json()).toHaveLength(1);
    expect((await partner.post('/api/app/processing/unsubscribe', { id: sub.json().id })).statusCode).toBe(
      404,
    );
    expect((await partner.post('/api/app/processing/unsubscribe', { id: own.json().id })).statusCode).toBe(
      200,
    );
    const gone = await fa.post('/api/app/processing/unsubscribe', { id: sub.json().id });
    expect(gone.statusCode).toBe(200);
    expect((await fa.get('/api/app/processing/subscriptions')).json()).toEqual([]);
  });

  it('the schedule queues due reports on the first business day only, once, and stamps them', async () => {
    const admin = await as('admin@paydesk.local');
    const monthly = (await admin.post('/api/app/processing/subscribe', { frequency: 'monthly' })).json();
    const quarterly = (await admin.post('/api/app/processing/subscribe', { frequency: 'quarterly' })).json();
    const definition = t.jobs.definition(SUBSCRIPTIONS_JOB);
    if (!definition) throw new Error('no subscriptions job');
    const holidays = new Set(
      (await rowsOf<{ day: string }>(t.db, sql`select day::text as day from holidays`)).map((h) => h.day),
    );
    /** The first business day of a month, and the day after it. */
    const firstBusiness = (month: string) => {
      let d = month;
      while ([0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()) || holidays.has(d)) d = shift(d, 1);
      return d;
    };
    const run = async (day: string) => {
      const id = await t.jobs.send(definition, { today: day });
      expect(await until(`the subscriptions run for ${day}`, () => finished(id))).toBe('completed');
    };
    const stamps = async () =>
      Object.fromEntries(
        (
          await t.db
            .selectFrom('report_subscriptions')
            .select(['id', 'last_sent_at'])
            .where('id', 'in', [monthly.id, quarterly.id])
            .execute()
        ).map((r) => [r.id, r.last_sent_at]),
      );
    const reportsFor = async () =>
      (
        await rowsOf<{ frequency: string }>(
          t.db,
          sql`select data->'payload'->>'frequency' as frequency from pgboss.job where name = ${REPORT_JOB}
                and data->'payload'->>'userId' = (select id::text from users where email = 'admin@paydesk.local')
              union all
              select data->'payload'->>'frequency' from pgboss.archive where name = ${REPORT_JOB}
                and data->'payload'->>'userId' = (select id::text from users where email = 'admin@paydesk.local')`,
        )
      ).map((r) => r.frequency);

    // A month that does not open a quarter, and the quarter's first month before it.
    const month = addMonths(thisMonth, Number(thisMonth.slice(5, 7)) % 3 === 1 ? -1 : 0);
    const quarterStart = addMonths(month, -((Number(month.slice(5, 7)) - 1) % 3));
    // A quarter's first business day: both are due.
    const quarterDay = firstBusiness(quarterStart);
    await run(shift(quarterDay, 1));
    expect(await reportsFor()).toEqual([]);
    await run(quarterDay);
    expect((await reportsFor()).sort()).toEqual(['monthly', 'quarterly']);
    const stamped = await stamps();
    expect(stamped[monthly.id]).toEqual(new Date(`${quarterDay}T06:00:00Z`));
    expect(stamped[quarterly.id]).toEqual(new Date(`${quarterDay}T06:00:00Z`));
    // The same day again sends nothing twice.
    await run(quarterDay);
    expect((await reportsFor()).sort()).toEqual(['monthly', 'quarterly']);
    // Another month's first business day: the monthly one only.
    await run(firstBusiness(month));
    expect((await reportsFor()).sort()).toEqual(['monthly', 'monthly', 'quarterly']);
    expect((await stamps())[quarterly.id]).toEqual(new Date(`${quarterDay}T06:00:00Z`));
  });
});
