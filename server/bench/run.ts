import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMonths, lastDueWindow, monthStart } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { activationRowsOfToday } from '../src/areas/bonus/queries';
import { runWindow } from '../src/areas/bonus/run';
import { SandboxChecks } from '../src/areas/leads/checks';
import { checkJobs } from '../src/areas/leads/jobs';
import { loadConfig } from '../src/config';
import { connect } from '../src/db/connect';
import { rebuildIsoInfo, refreshDerived } from '../src/db/derived';
import { migrateToLatest } from '../src/db/migrate';
import { seedAchIfMissing } from '../src/db/seed/ach';
import { seedBonusIfMissing } from '../src/db/seed/bonus';
import { isEmpty, seedDemo } from '../src/db/seed/index';
import { seedLeadsIfMissing } from '../src/db/seed/leads';
import { seedPciIfMissing } from '../src/db/seed/pci';
import { Jobs } from '../src/platform/jobs';
import { configurePiiKeys } from '../src/platform/pii';
import { benchApp } from './benchApp';

/**
 * npm run bench: the table toolkit's performance goals at the `large` scale on PostgreSQL.
 * Each query runs through the real HTTP stack (app.inject: validation, session, transaction, JSON), and
 * beside it the same question answered by straightforward SQL on the raw rows.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 8);
const PASSWORD = process.env.DEMO_PASSWORD ?? 'Bench-Pass-2026!';

// One client asks each call forty times in a row: the per-address limits would answer some of them 429.
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RATE_LIMITS: 'off' });
if (!config.DATABASE_URL)
  throw new Error('The benchmark runs on PostgreSQL: set DATABASE_URL, or use npm run bench');
const connected = await connect({ databaseUrl: config.DATABASE_URL });
const { db, close } = connected;
await migrateToLatest(db);
// The seed writes PCI bank numbers encrypted: the bench database keeps its key in DATA_DIR like a demo server.
configurePiiKeys(config);
if (await isEmpty(db)) {
  // BENCH_SCALE=demo seeds the small scale, xl about three times large: scripts/bench.sh runs them beside the
  // large one, to show what grows.
  const scale =
    process.env.BENCH_SCALE === 'demo' || process.env.BENCH_SCALE === 'xl'
      ? process.env.BENCH_SCALE
      : 'large';
  console.log(`Seeding the ${scale} scale (once; later runs reuse it)…`);
  // In stages on two connections: the bench's database is a PostgreSQL server.
  const report = await seedDemo(db, { password: PASSWORD, scale, log: (l) => console.log(l), staged: true });
  console.log(`Seeded in ${report.seconds} s`);
}
// A bench database seeded before the ACH tables existed gets its ACH rows once (a few minutes at this scale).
if (await seedAchIfMissing(db, (l) => console.log(l))) console.log('Added the ACH returns');
// Likewise the bonus module's specifications and past runs.
if (await seedBonusIfMissing(db, (l) => console.log(l))) console.log('Added the bonus data');
// Likewise the PCI merchants, configuration and past billing.
if (await seedPciIfMissing(db, (l) => console.log(l))) console.log('Added the PCI data');
// And the sandbox CRM's leads (10,000 at the large scale).
if (await seedLeadsIfMissing(db, (l) => console.log(l))) console.log('Added the CRM leads');

// Tables a migration has just filled need their visibility map and statistics (a no-op when current).
await sql`vacuum analyze selfserve_rows, activity_rollup, residuals, applications, merchants, partners, merchant_monthly, ach_returns, ach_rate_window, ach_groups, pci_merchants, pci_billing`.execute(
  db,
);

// The executive ISO list reads each ISO's figures of today; after midnight the hourly job (bi.iso-info) rebuilds
// them, as here, or the list would be counted from the merchants.
await rebuildIsoInfo(db);
// Likewise the Activation tab's kept rows of an earlier day, written again as of today by the hourly job
// (bonus.activation-day); until then each first ask of a new day works their days since out in its statement.
await activationRowsOfToday(db);

const { app, close: closeApp } = await benchApp(connected, config);
const signin = await app.inject({
  method: 'POST',
  url: '/api/app/account/signin',
  payload: { email: 'admin@paydesk.local', password: PASSWORD },
});
if (signin.statusCode !== 200) throw new Error(`Cannot sign in as the demo admin: ${signin.body}`);
const cookie = signin.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

async function post(url: string, payload: unknown) {
  const res = await app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

async function timed(fn: () => Promise<unknown>, runs: number) {
  for (let i = 0; i < 2; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * As timed(), with `write` run before each run (untimed): a row written as an edit would write it, so every run
 * computes afresh what that write touched (an answer kept in parts: platform/answerCache.ts, keptArrayInParts).
 */
async function timedAfterWrite(write: () => Promise<unknown>, fn: () => Promise<unknown>, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    await write();
    const start = performance.now();
    await fn();
    if (i >= 2) times.push(performance.now() - start);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * As timed(), for an answer kept by platform/answerCache.ts: its version is raised before each run (untimed), as a
 * write to a table it reads would, so every run computes the answer afresh.
 */
const timedAfterChange = (answer: string, fn: () => Promise<unknown>, runs: number) =>
  timedAfterWrite(
    () => sql`update answer_versions set version = version + 1 where name = ${answer}`.execute(db),
    fn,
    runs,
  );

/** Runs one spreadsheet job in a child process (bench/spreadsheet.ts) and reads its report. */
function child(args: string[]): {
  seconds: number;
  peakMb: number;
  baselineMb: number;
  status: number;
  body: string;
} {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'spreadsheet.ts'), ...args],
    {
      env: { ...process.env, DEMO_PASSWORD: PASSWORD },
      encoding: 'utf8',
      maxBuffer: 10 * 1024 * 1024,
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

const month = addMonths(monthStart(new Date()), -1);
const residualMonth = addMonths(monthStart(new Date()), -2);
const counts = await sql<{
  merchants: number;
  rows: number;
  daily: number;
  monthly: number;
  residuals: number;
  apps: number;
  isos: number;
}>`
  select (select count(*) from merchants) as merchants,
         (select count(*) from merchant_monthly where month = ${month}::date) as rows,
         (select count(*) from merchant_daily) as daily, (select count(*) from merchant_monthly) as monthly,
         (select count(*) from residuals) as residuals, (select count(*) from applications) as apps,
         (select count(*) from partners) as isos`.execute(db);
const c = counts.rows[0];
console.log(
  `\nData: ${c?.isos} ISOs, ${c?.merchants} merchants, ${c?.apps} applications, ${c?.monthly} monthly and ${c?.daily} daily activity rows, ${c?.residuals} residual rows; ${c?.rows} Self Serve rows in ${month.slice(0, 7)}.\n`,
);

/**
 * BENCH_ONLY=tables,ach (comma-separated section names) runs only those sections; unset runs them all.
 * Sections: tables, sales, financial, partners, processing, ach, bonus, bi, pci, leads, spreadsheets (and any added
 * below).
 */
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const section = (name: string) => only.length === 0 || only.includes(name);

/**
 * Every printed table, kept for the side-by-side comparison of scales (BENCH_RESULTS=<file> writes them as JSON at
 * the end; scripts/bench.sh runs the demo and large scales and server/bench/compare.ts prints them side by side).
 */
const results: { table: string; label: string; p50?: string; p95?: string; seconds?: string }[] = [];
function printTable(title: string, rows: readonly object[]) {
  console.log(`\n${title}`);
  console.table(rows);
  for (const item of rows) {
    const row = item as Record<string, unknown>;
    const label = String(row.question ?? row.job ?? '');
    const pick = (k: string) => (typeof row[k] === 'string' ? (row[k] as string) : undefined);
    const seconds = pick('seconds');
    results.push({
      table: title,
      label,
      ...(pick('p50') ? { p50: pick('p50') } : {}),
      ...(pick('p95') ? { p95: pick('p95') } : {}),
      ...(seconds ? { seconds } : {}),
    });
  }
}

/** A call's timing: its median and 95th percentile, in ms. */
interface Timing {
  p50: number;
  p95: number;
}

interface Row {
  question: string;
  p50: string;
  p95: string;
  target: string;
  straightforward_p50: string;
  straightforward_p95: string;
}
const ms = (x: number) => `${x.toFixed(1)} ms`;
/** A row's verdict against its p95 bound (25 ms unless said). */
const within = (p95: number, bound = 25) => `p95 ≤ ${bound} ms ${p95 <= bound ? '✓' : '✗'}`;

/** A row of a section's table: the call's p50 and p95 against its bound, and the straightforward SQL's beside it. */
const measured = (question: string, d: Timing, plain: Timing, bound = 25): Row => ({
  question,
  p50: ms(d.p50),
  p95: ms(d.p95),
  target: within(d.p95, bound),
  straightforward_p50: ms(plain.p50),
  straightforward_p95: ms(plain.p95),
});

const thisMonth = monthStart(new Date());
const todayIso = new Date().toISOString().slice(0, 10);
const lastDay = (m: string) =>
  new Date(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 0)).toISOString().slice(0, 10);

/**
 * A call as a browser makes it, accepting gzip: the answer's bytes as sent. The test harness would otherwise
 * decode every answer as text, compressed bytes too (4 ms a call for GetLeads' 0.2 MB), which no browser does.
 */
async function askAsBrowser(method: 'GET' | 'POST', url: string, payload?: object, gzip = true) {
  const res = await app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: gzip ? { cookie, 'accept-encoding': 'gzip, deflate, br' } : { cookie },
    payloadAsStream: true,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res.stream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (res.statusCode !== 200)
    throw new Error(`${url} answered ${res.statusCode}: ${bytes.toString().slice(0, 300)}`);
  return { bytes, encoding: res.headers['content-encoding'] };
}

/**
 * A GET by a client that does not accept gzip: the answer's bytes as sent, read as askAsBrowser reads them. The
 * harness's own `res.body` would decode them into a string first (5 MB for the partner directory at xl, whose
 * garbage made a few asks of forty three times slower), which is the client's work, not the server's.
 */
const get = (url: string) => askAsBrowser('GET', url, undefined, false);

if (section('tables')) {
  // The straightforward answer: the month summed from the daily rows, filtered, sorted and paged in SQL.
  function straightforwardSelfServe(where: string, order: string, limit: number, offset: number) {
    const from = `(select merchant_id, sum(volume) as volume, sum(transactions) as transactions,
      sum(chargeback_volume) as chargeback_volume, sum(chargebacks) as chargebacks,
      sum(refund_volume) as refund_volume, sum(refunds) as refunds
    from merchant_daily where day >= '${month}' and day < date '${month}' + interval '1 month' group by merchant_id) a
    join merchants m on m.id = a.merchant_id join partners p on p.id = m.partner_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = '${month}'`;
    return async () => {
      await sql
        .raw(
          `select m.*, p.account_name, a.*, i.net from ${from} where ${where} order by ${order} limit ${limit} offset ${offset}`,
        )
        .execute(db);
      await sql.raw(`select count(*) from ${from} where ${where}`).execute(db);
    };
  }

  const rows: Row[] = [];

  // Self Serve and Residual Self Serve keep a filtered month's count and totals until a row of the month is written
  // (answers selfserve_counts and residual_counts, platform/tableQuery.ts): their calls are also timed first asked
  // after every month changed.
  const keptCounts: Record<string, string> = {
    '/api/selfserve/query': 'selfserve_counts',
    '/api/ResidualSelfServe/query': 'residual_counts',
  };
  async function compare(
    question: string,
    body: Record<string, unknown>,
    url: string,
    baseline: () => Promise<unknown>,
  ) {
    const design = await timed(() => post(url, body), RUNS);
    const plain = await timed(baseline, BASELINE_RUNS);
    rows.push(measured(question, design, plain));
    const answer = keptCounts[url];
    if (answer) {
      const changed = await timedAfterChange(answer, () => post(url, body), RUNS);
      rows.push(measured(`${question}, first ask after its month changed`, changed, plain));
    }
  }

  await compare(
    'Self Serve: text filter (DBA "sun…"), sort by volume, page 1 of 25',
    {
      dt: month,
      filters: [{ id: 'dba', kind: 'text', value: 'sun' }],
      sort: [{ id: 'tx_amt', desc: true }],
      page: 1,
      pageSize: 25,
    },
    '/api/selfserve/query',
    straightforwardSelfServe("lower(m.dba) like 'sun%'", 'a.volume desc, m.id', 25, 0),
  );
  await compare(
    'Self Serve: range filter (500–5,000 transactions), sort by income, page 3',
    {
      dt: month,
      filters: [{ id: 'tx_cnt', kind: 'range', min: 500, max: 5000 }],
      sort: [{ id: 'income', desc: true }],
      page: 3,
      pageSize: 25,
    },
    '/api/selfserve/query',
    straightforwardSelfServe('a.transactions between 500 and 5000', 'i.net desc nulls last, m.id', 25, 50),
  );
  await compare(
    'Self Serve: text + range filter, sort by opened date, page 2',
    {
      dt: month,
      filters: [
        { id: 'groupname', kind: 'text', value: 'a' },
        { id: 'tx_amt', kind: 'range', min: 10000, max: null },
      ],
      sort: [{ id: 'opend', desc: false }],
      page: 2,
      pageSize: 25,
    },
    '/api/selfserve/query',
    straightforwardSelfServe(
      "lower(p.account_name) like 'a%' and a.volume >= 10000",
      'm.opened_on, m.id',
      25,
      25,
    ),
  );
  await compare(
    'Self Serve: no filter, default sort, deep page (page 200 of 25)',
    { dt: month, page: 200, pageSize: 25 },
    '/api/selfserve/query',
    straightforwardSelfServe('true', 'a.volume desc, m.id', 25, 199 * 25),
  );
  await compare(
    'Residual: the month, default sort, page 1 of 25',
    { dt: residualMonth, page: 1, pageSize: 25 },
    '/api/ResidualSelfServe/query',
    // The older client's way: fetch the whole month, then filter, sort and page in the browser.
    async () => {
      const all = (await post('/api/ResidualSelfServe', { dt: residualMonth })).json() as Array<{
        TotalNet: string;
      }>;
      all.sort((a, b) => Number(b.TotalNet) - Number(a.TotalNet)).slice(0, 25);
    },
  );
  await compare(
    'Residual: agent filter, net ≥ $100, sort by DBA, page 2',
    {
      dt: residualMonth,
      filters: [
        { id: 'Agent', kind: 'text', value: 's' },
        { id: 'TotalNet', kind: 'range', min: 100, max: null },
      ],
      sort: [{ id: 'DBA', desc: false }],
      page: 2,
      pageSize: 25,
    },
    '/api/ResidualSelfServe/query',
    async () => {
      const all = (await post('/api/ResidualSelfServe', { dt: residualMonth })).json() as Array<{
        Agent: string;
        TotalNet: string;
        DBA: string;
      }>;
      all
        .filter((r) => r.Agent.toLowerCase().startsWith('s') && Number(r.TotalNet) >= 100)
        .sort((a, b) => a.DBA.localeCompare(b.DBA))
        .slice(25, 50);
    },
  );

  printTable('Table queries (through the HTTP stack; straightforward = the same question on raw rows)', rows);
}

if (section('sales')) {
  // The sales dashboard, the leaderboard and the ISO partners dashboard. Straightforward = the same count
  // with the date functions on the column (date_trunc / ::date), which no index can serve.
  const isoRanges = {
    today: todayIso,
    this_month_start: thisMonth,
    this_month_end: lastDay(thisMonth),
    last_month_start: addMonths(thisMonth, -1),
    last_month_end: lastDay(addMonths(thisMonth, -1)),
    this_year_start: `${todayIso.slice(0, 4)}-01-01`,
    this_year_end: `${todayIso.slice(0, 4)}-12-31`,
    last_year_start: `${Number(todayIso.slice(0, 4)) - 1}-01-01`,
    last_year_end: `${Number(todayIso.slice(0, 4)) - 1}-12-31`,
  };
  const plainCount = (where: string) => () =>
    sql.raw(`select count(*) from applications where ${where}`).execute(db);
  const plainByPartner = (where: string) => () =>
    sql
      .raw(
        `select p.account_name, count(*) from applications a join partners p on p.id = a.partner_id where ${where} group by 1`,
      )
      .execute(db);
  const salesCalls: Array<[string, string, Record<string, unknown> | undefined, () => Promise<unknown>]> = [
    ['/api/approvedToday', 'POST', undefined, plainCount('approved_at::date = current_date')],
    ['/api/submittedToday', 'POST', undefined, plainCount('submitted_at::date = current_date')],
    [
      '/api/approvedTodayByProfile',
      'POST',
      undefined,
      plainCount("approved_at::date = current_date and profile = 'PayLo'"),
    ],
    [
      '/api/submittedYestByProfile',
      'POST',
      undefined,
      plainCount("submitted_at::date = current_date - 1 and profile = 'PayLo'"),
    ],
    [
      '/api/approvedTodayInHouse',
      'POST',
      undefined,
      plainCount(
        'approved_at::date = current_date and partner_id in (select id from partners where in_house)',
      ),
    ],
    [
      '/api/submittedApprovedTodayPartner',
      'POST',
      undefined,
      plainByPartner('a.submitted_at::date = current_date or a.approved_at::date = current_date'),
    ],
    [
      '/api/approvedMTD',
      'POST',
      { cntr: 0 },
      plainCount("date_trunc('month', approved_at) = date_trunc('month', now())"),
    ],
    [
      '/api/submittedMTD',
      'POST',
      { cntr: -1 },
      plainCount("date_trunc('month', submitted_at) = date_trunc('month', now() - interval '1 month')"),
    ],
    [
      '/api/closedMTD',
      'POST',
      { cntr: 0 },
      () =>
        sql`select count(*) from merchants where date_trunc('month', closed_on) = date_trunc('month', now())`.execute(
          db,
        ),
    ],
    [
      '/api/approvedMTDPartner',
      'POST',
      { cntr: 0 },
      plainByPartner("date_trunc('month', a.approved_at) = date_trunc('month', now())"),
    ],
    [
      '/api/ClosedMTDPartner',
      'POST',
      { cntr: 0 },
      () =>
        sql`select p.account_name, count(*) from merchants m join partners p on p.id = m.partner_id where date_trunc('month', m.closed_on) = date_trunc('month', now()) group by 1`.execute(
          db,
        ),
    ],
    [
      '/api/month',
      'POST',
      { dt: addMonths(thisMonth, -1) },
      plainCount("date_trunc('month', approved_at) = date_trunc('month', now() - interval '1 month')"),
    ],
    [
      '/api/year',
      'POST',
      { dt: todayIso },
      () =>
        sql`select extract(month from approved_at), count(*) from applications where extract(year from approved_at) = extract(year from now()) group by 1`.execute(
          db,
        ),
    ],
    [
      '/api/pending45days',
      'POST',
      undefined,
      () =>
        sql`select pending_level, count(*) from applications where status = 'Pending' and now() - submitted_at > interval '45 days' group by 1`.execute(
          db,
        ),
    ],
    [
      '/api/leaderboardUW',
      'POST',
      undefined,
      () =>
        sql`select underwriter, count(*) from applications where date_trunc('month', approved_at) = date_trunc('month', now()) group by 1`.execute(
          db,
        ),
    ],
    [
      '/api/leaderboardRM',
      'POST',
      undefined,
      () =>
        sql`select rm, count(*) from applications where date_trunc('month', approved_at) = date_trunc('month', now()) group by 1`.execute(
          db,
        ),
    ],
    [
      '/api/iso/GetPartners',
      'POST',
      isoRanges,
      () =>
        sql`select p.account_name,
      (select count(*) from applications a where a.partner_id = p.id and date_trunc('month', a.approved_at) = date_trunc('month', now())),
      (select count(*) from applications a where a.partner_id = p.id and extract(year from a.approved_at) = extract(year from now())),
      (select current_date - max(a.submitted_at)::date from applications a where a.partner_id = p.id)
    from partners p`.execute(db),
    ],
    [
      '/api/iso/GetPartnersStatus',
      'POST',
      {
        this_month_start: thisMonth,
        this_month_end: lastDay(thisMonth),
        last_90D_start: new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10),
        last_90D_end: todayIso,
      },
      () =>
        sql`select p.account_name,
      (select count(*) from applications a where a.partner_id = p.id and now() - a.approved_at < interval '90 days')
    from partners p`.execute(db),
    ],
    ['/api/iso/partners/query', 'POST', { month: thisMonth, pageSize: 15 }, async () => undefined],
  ];
  const salesRows: Row[] = [];
  for (const [url, , body, plain] of salesCalls) {
    const design = await timed(() => post(url, body ?? {}), RUNS);
    const baseline = await timed(plain, BASELINE_RUNS);
    salesRows.push({
      question: url,
      p50: ms(design.p50),
      p95: ms(design.p95),
      target: within(design.p95),
      straightforward_p50: url === '/api/iso/partners/query' ? '—' : ms(baseline.p50),
      straightforward_p95: url === '/api/iso/partners/query' ? '—' : ms(baseline.p95),
    });
  }
  // Everything the /sales page asks for on load of the current month, at once as the browser does.
  const pageCalls: Array<[string, Record<string, unknown>]> = [
    ...[
      'approvedToday',
      'submittedToday',
      'approvedTodayInHouse',
      'submittedTodayInHouse',
      'approvedTodayByProfile',
      'submittedTodayByProfile',
      'approvedYest',
      'submittedYest',
      'approvedYestByProfile',
      'submittedYestByProfile',
      'submittedApprovedTodayPartner',
      'submittedApprovedTodayInHousePartner',
      'pending45days',
    ].map((n): [string, Record<string, unknown>] => [`/api/${n}`, {}]),
    ...[
      'approvedMTD',
      'submittedMTD',
      'closedMTD',
      'approvedMTDInHouse',
      'submittedMTDInHouse',
      'approvedMTDPartner',
      'approvedMTDInHousePartner',
      'ClosedMTDPartner',
    ].map((n): [string, Record<string, unknown>] => [`/api/${n}`, { cntr: 0 }]),
    ...['year', 'salesYTDgoals', 'holiday'].map((n): [string, Record<string, unknown>] => [
      `/api/${n}`,
      { dt: todayIso },
    ]),
  ];
  const wholePage = await timed(
    () => Promise.all(pageCalls.map(([url, body]) => post(url, body))),
    Math.max(10, Math.round(RUNS / 2)),
  );
  salesRows.push({
    question: `the whole /sales page: ${pageCalls.length} calls at once`,
    p50: ms(wholePage.p50),
    p95: ms(wholePage.p95),
    target: within(wholePage.p95, 120),
    straightforward_p50: '—',
    straightforward_p95: '—',
  });
  // The year's approvals, every one listed (the YTD card's details): kept in parts (a part per earlier month, a part
  // per day of this month) until a write touches an approval of one of its days, so asked again and first asked
  // after a change, as a browser asks (accepting gzip).
  {
    const ask = () => askAsBrowser('POST', '/api/approvedYTD_Details', { dt: todayIso });
    const again = await timed(ask, RUNS);
    // An approval written (untimed, before each run: the newest approval's row written again, as an edit would)
    // makes its day's part read again; a truncate (the answer's own version) makes every part's.
    const newest = await sql<{ id: number }>`select id from applications where approved_at is not null
      order by approved_at desc limit 1`.execute(db);
    const newestId = newest.rows[0]?.id ?? 0;
    const afterApproval = await timedAfterWrite(
      () => sql`update applications set approved_at = approved_at where id = ${newestId}`.execute(db),
      ask,
      RUNS,
    );
    const first = await timedAfterChange('approvals', ask, RUNS);
    const b = await timed(
      () =>
        sql`select a.id, a.dba, a.profile, a.sponsor_bank, p.account_name, a.approved_at from applications a join partners p on p.id = a.partner_id
          where a.approved_at >= date_trunc('year', now()) order by a.approved_at`.execute(db),
      BASELINE_RUNS,
    );
    for (const [question, d] of [
      ["/api/approvedYTD_Details (every approval of the year: the older client's whole list)", again],
      ['/api/approvedYTD_Details, first ask after an approval of this month is written', afterApproval],
      ['/api/approvedYTD_Details, first ask after every month changed (a truncate)', first],
    ] as const)
      salesRows.push(measured(question, d, b));
    // What the dashboard's detail modals ask (`from`: a month's or a day's approvals, not the year's): last month's
    // and today's, asked again and first asked after every month changed. Straightforward = the same days' rows.
    const lastMonth = addMonths(thisMonth, -1);
    for (const [label, from, dt] of [
      ["last month's approvals (a card's detail modal)", lastMonth, lastDay(lastMonth)],
      ["today's approvals", todayIso, todayIso],
    ] as const) {
      const askRange = () => askAsBrowser('POST', '/api/approvedYTD_Details', { dt, from });
      const plain = await timed(
        () =>
          sql`select a.id, m.mid, coalesce(m.dba, a.dba), a.sponsor_bank, a.profile, p.account_name, a.approved_at
            from applications a join partners p on p.id = a.partner_id left join merchants m on m.id = a.merchant_id
            where a.approved_at >= ${from}::date and a.approved_at < ${dt}::date + 1 order by a.approved_at desc, a.id`.execute(
            db,
          ),
        BASELINE_RUNS,
      );
      salesRows.push(measured(`/api/approvedYTD_Details, ${label}`, await timed(askRange, RUNS), plain));
      salesRows.push(
        measured(
          `/api/approvedYTD_Details, ${label}, first ask after every month changed`,
          await timedAfterChange('approvals', askRange, RUNS),
          plain,
        ),
      );
    }
  }
  printTable('Sales dashboard, leaderboard and ISO partners (through the HTTP stack)', salesRows);
}

if (section('financial')) {
  // The financial dashboard: the 12-month average and the monthly series, with no filter, one filter and a
  // filter in every group. Straightforward = the same sums over the merchant-months, joined and filtered.
  const finStart = addMonths(thisMonth, -12);
  const finEnd = addMonths(thisMonth, -1);
  const everyGroup = {
    profile: ['Traditional'],
    bank: ['CBCAL'],
    omonth: [3, 4, 5, 6],
    oyear: [2021, 2022, 2023],
    mcc: ['5812', '5814', '7230', '8021'],
    partner: ['Summit Payment Group', 'Harborline Merchant Services', 'Keystone Card Solutions'],
  };
  const finCases: Array<[string, Record<string, unknown>, string]> = [
    ['no filter', {}, 'true'],
    ['one filter (profile PayLo)', { profile: ['PayLo'] }, "m.profile = 'PayLo'"],
    [
      'a filter in every group',
      everyGroup,
      `m.profile = 'Traditional' and m.sponsor_bank = 'CBCAL' and extract(month from m.opened_on) in (3,4,5,6)
     and extract(year from m.opened_on) in (2021,2022,2023) and m.mcc in ('5812','5814','7230','8021')
     and m.partner_id in (select id from partners where account_name in ('Summit Payment Group','Harborline Merchant Services','Keystone Card Solutions'))`,
    ],
  ];
  const finRows: Row[] = [];
  for (const [name, filters, where] of finCases) {
    for (const [url, body, plainSql] of [
      [
        '/api/finaverage',
        { filters, start: finStart, end: finEnd },
        `select sum(a.volume) / count(*), sum(a.transactions) / count(*), sum(coalesce(i.net, 0)) / count(*),
        avg((extract(year from age(a.month, date_trunc('month', m.opened_on))) * 12 + extract(month from age(a.month, date_trunc('month', m.opened_on)))))
      from merchant_monthly a join merchants m on m.id = a.merchant_id left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
      where a.month between '${finStart}' and '${finEnd}' and ${where}`,
      ],
      [
        '/api/findata',
        { filters, start: addMonths(thisMonth, -13) },
        `select a.month, sum(a.volume), sum(a.transactions), sum(coalesce(i.net, 0))
      from merchant_monthly a join merchants m on m.id = a.merchant_id left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
      where a.month >= '${addMonths(thisMonth, -13)}' and ${where} group by a.month`,
      ],
    ] as Array<[string, Record<string, unknown>, string]>) {
      const design = await timed(() => post(url, body), RUNS);
      const plain = await timed(() => sql.raw(plainSql).execute(db), BASELINE_RUNS);
      finRows.push(measured(`${url}: ${name}`, design, plain));
    }
  }
  // The filter groups' values, asked by the dashboard before its figures: each group's distinct values among
  // the merchants, and every merchant's MID and DBA. Straightforward = those statements as the spec lists them.
  // Kept as two answers (the groups; the MID list in parts by DBA): asked again, first asked after every part
  // changed (both versions raised before each ask, as after a server start), and after one merchant's edit, its
  // DBA (one part of the list) or its MCC (the groups), each written alternating two values before each ask and
  // put back afterwards. Asked as a browser asks (accepting gzip): the kept answer's compressed bytes are made once.
  const askOptions = () => askAsBrowser('GET', '/api/finoptions');
  const optionsDesign = await timed(askOptions, RUNS);
  const optionsFirst = await timedAfterWrite(
    () =>
      sql`update answer_versions set version = version + 1 where name in ('fin_options', 'fin_mids')`.execute(
        db,
      ),
    askOptions,
    RUNS,
  );
  const { rows: someone } = await sql<{ id: number; dba: string; mcc: string; other: string }>`
    select m.id, m.dba, m.mcc, (select min(code) from mcc_codes c where c.code <> m.mcc) as other
    from merchants m order by m.id limit 1`.execute(db);
  const target = someone[0];
  if (!target) throw new Error('No merchant to edit: is the bench database seeded?');
  let flipped = false;
  // The merchant's MCC, alternating two values (put back afterwards).
  const flipMcc = () => {
    flipped = !flipped;
    return sql`update merchants set mcc = ${flipped ? target.other : target.mcc} where id = ${target.id}`.execute(
      db,
    );
  };
  const [optionsDba, optionsMcc] = await (async () => {
    try {
      const dba = await timedAfterWrite(
        () => {
          flipped = !flipped;
          return sql`update merchants set dba = ${flipped ? `${target.dba} (bench)` : target.dba}
            where id = ${target.id}`.execute(db);
        },
        askOptions,
        RUNS,
      );
      const mcc = await timedAfterWrite(flipMcc, askOptions, RUNS);
      return [dba, mcc];
    } finally {
      await sql`update merchants set dba = ${target.dba}, mcc = ${target.mcc} where id = ${target.id}`.execute(
        db,
      );
    }
  })();
  const groupStatements = [
    'select distinct profile from merchants order by 1',
    'select distinct sponsor_bank from merchants order by 1',
    'select distinct mcc from merchants order by 1',
    'select code, description from mcc_codes where code in (select distinct mcc from merchants) order by code',
    'select distinct p.account_name from partners p join merchants m on m.partner_id = p.id order by 1',
    'select distinct extract(month from opened_on)::int from merchants order by 1',
    'select distinct extract(year from opened_on)::int from merchants order by 1',
  ];
  const statementsTimed = (statements: string[]) =>
    timed(async () => {
      for (const q of statements) await sql.raw(q).execute(db);
    }, BASELINE_RUNS);
  const optionsPlain = await statementsTimed([
    ...groupStatements,
    'select mid, dba from merchants order by dba, mid',
  ]);
  // What the dashboard asks (it has no MID filter): the groups alone, asked again, first asked after every part
  // changed, and after a merchant's MCC edit (as above).
  const askGroups = () => askAsBrowser('GET', '/api/finoptions/groups');
  const groupsDesign = await timed(askGroups, RUNS);
  const groupsFirst = await timedAfterChange('fin_options', askGroups, RUNS);
  const groupsMcc = await (async () => {
    try {
      return await timedAfterWrite(flipMcc, askGroups, RUNS);
    } finally {
      await sql`update merchants set mcc = ${target.mcc} where id = ${target.id}`.execute(db);
    }
  })();
  const groupsPlain = await statementsTimed(groupStatements);
  for (const [question, d] of [
    ['/api/finoptions/groups (the dashboard: every filter group, no MIDs)', groupsDesign],
    ['/api/finoptions/groups, first ask after every part changed', groupsFirst],
    ["/api/finoptions/groups, first ask after a merchant's MCC edit", groupsMcc],
  ] as const)
    finRows.push(measured(question, d, groupsPlain));
  for (const [question, d] of [
    ["/api/finoptions (every filter group, every MID: the older client's whole list)", optionsDesign],
    ['/api/finoptions, first ask after every part changed', optionsFirst],
    ["/api/finoptions, first ask after a merchant's DBA edit", optionsDba],
    ["/api/finoptions, first ask after a merchant's MCC edit", optionsMcc],
  ] as const)
    finRows.push(measured(question, d, optionsPlain));
  printTable('Financial dashboard (through the HTTP stack)', finRows);
}

if (section('partners')) {
  // Partners: the directory calls, and the CRM import of every account and group from the sandbox.
  const partnerRows: Row[] = [];
  const wholeDirectory = () =>
    sql`select * from partners p left join groups g on g.partner_id = p.id order by p.account_name`.execute(
      db,
    );
  const partnerCalls: Array<[string, () => Promise<unknown>, () => Promise<unknown>, number]> = [
    ['GET /api/partners/GetPartners', () => get('/api/partners/GetPartners'), wholeDirectory, 25],
    [
      'GET /api/partners/GetPartners, as a browser asks (gzip)',
      () => askAsBrowser('GET', '/api/partners/GetPartners'),
      wholeDirectory,
      25,
    ],
    [
      '/api/app/partners/query (status Active, page of 15)',
      () =>
        post('/api/app/partners/query', { filters: [{ id: 'status', kind: 'select', values: ['Active'] }] }),
      () =>
        sql`select account_name, status, full_name, rm from partners where status = 'Active' order by account_name limit 15`.execute(
          db,
        ),
      25,
    ],
    [
      '/api/searchpartner {val: "pa"}',
      () => post('/api/searchpartner', { val: 'pa' }),
      () =>
        sql`select * from partners p left join groups g on g.partner_id = p.id where p.account_name ilike 'pa%'`.execute(
          db,
        ),
      25,
    ],
  ];
  for (const [question, design, plain, target] of partnerCalls) {
    const d = await timed(design, RUNS);
    const b = await timed(plain, BASELINE_RUNS);
    partnerRows.push(measured(question, d, b, target));
  }
  printTable('Partners (through the HTTP stack)', partnerRows);
  // The import with every account and group changed in the sandbox (its worst case), rolled back afterwards.
  const { importFromCrm } = await import('../src/areas/partners/importJob');
  const { SandboxCrm } = await import('../src/platform/crm');
  let importSeconds = 0;
  let importCounts = '';
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`update crm_accounts set rm = coalesce(rm, '') || ' (changed)'`.execute(trx);
      await sql`update crm_groups set rev_share = round(rev_share * 0.99, 4)`.execute(trx);
      const started = performance.now();
      const counts = await importFromCrm(trx, new SandboxCrm());
      importSeconds = (performance.now() - started) / 1000;
      importCounts = `${counts.accountsChanged} accounts and ${counts.groupsChanged} groups changed`;
      throw new Error('rolled back');
    })
    .catch((err: Error) => {
      if (err.message !== 'rolled back') throw err;
    });
  printTable('Partner import', [
    {
      job: 'Partner import from the sandbox CRM (one transaction)',
      result: importCounts,
      seconds: importSeconds.toFixed(2),
      target: `≤ 10 s ${importSeconds <= 10 ? '✓' : '✗'}`,
    },
  ]);
}

if (section('processing')) {
  // The processing dashboard (spec document 2 §2.8): a year's seven lists and the activations, through the HTTP
  // stack. Straightforward = the monthly lists summed from merchant_monthly and the month's days from merchant_daily.
  const processingRows: Row[] = [];
  const year = new Date().getUTCFullYear();
  const processingCalls: [string, string, Record<string, unknown>, () => Promise<unknown>, number][] = [
    [
      `/api/processinginfo, the current year (${year}, live)`,
      '/api/processinginfo',
      { dt: todayIso, historic: false },
      async () => {
        await sql`select m.sponsor_bank, a.month, sum(a.volume), sum(a.transactions) from merchant_monthly a
        join merchants m on m.id = a.merchant_id where a.month >= ${`${year}-01-01`}::date group by 1, 2`.execute(
          db,
        );
        await sql`select m.profile, a.month, sum(a.volume) from merchant_monthly a
        join merchants m on m.id = a.merchant_id where a.month >= ${`${year}-01-01`}::date group by 1, 2`.execute(
          db,
        );
        await sql`select day, sum(volume) from merchant_daily where day >= ${thisMonth}::date group by day`.execute(
          db,
        );
      },
      25,
    ],
    [
      `/api/processinginfo, a historic year (${year - 2})`,
      '/api/processinginfo',
      { dt: `${year - 2}-12-31`, historic: true },
      async () => {
        await sql`select m.sponsor_bank, a.month, sum(a.volume), sum(a.transactions) from merchant_monthly a
        join merchants m on m.id = a.merchant_id
        where a.month >= ${`${year - 2}-01-01`}::date and a.month <= ${`${year - 2}-12-01`}::date group by 1, 2`.execute(
          db,
        );
      },
      25,
    ],
    [
      '/api/getActivation, the current year',
      '/api/getActivation',
      { dt: todayIso },
      () =>
        sql`select date_trunc('month', activated_on), count(*) from merchants
        where extract(year from activated_on) = ${year} group by 1`.execute(db),
      25,
    ],
  ];
  for (const [question, url, body, plain, target] of processingCalls) {
    const d = await timed(() => post(url, body), RUNS);
    const b = await timed(plain, BASELINE_RUNS);
    processingRows.push(measured(question, d, b, target));
  }
  printTable('Processing dashboard (through the HTTP stack)', processingRows);
  // One quarter report (the latest complete quarter's workbook and PDF), in a process of its own.
  const [reportQuarterToBuild] = (await import('@paydesk/domain')).reportQuarters().filter((q) => q.complete);
  if (!reportQuarterToBuild) throw new Error('No complete report quarter');
  const report = child(['report', String(reportQuarterToBuild.yr), String(reportQuarterToBuild.qr)]);
  printTable('Processing report', [
    {
      job: `Processing report ${reportQuarterToBuild.label} (workbook + PDF with charts)`,
      result: report.body,
      seconds: report.seconds.toFixed(2),
      'peak MB': report.peakMb,
      'process before, MB': report.baselineMb,
      target: `≤ 10 s ${report.seconds <= 10 ? '✓' : '✗'}, ≤ 300 MB ${report.peakMb <= 300 ? '✓' : '✗'}`,
    },
  ]);
}

if (section('ach')) {
  // ACH returns: the table under filters and sorts, an edit, and the return-rate panel. Straightforward = the derived
  // columns computed from the raw rows in the query (classification by the spec's case, merchRejBal as a window sum
  // over the legal name), then filtered, sorted and paged.
  const achCounts = await sql<{
    returns: number;
    entries: number;
  }>`select (select count(*) from ach_returns) as returns,
  (select count(*) from ach_debit_entries) as entries`.execute(db);
  console.log(
    `\nACH: ${achCounts.rows[0]?.returns} return rows, ${achCounts.rows[0]?.entries} merchant-days of debit entries.`,
  );
  function straightforwardAch(where: string, order: string) {
    const from = `(select r.*, sum(coalesce(used_rsv, 0) + coalesce(re_ran, 0) + coalesce(sent_to_coll, 0)
        + coalesce(write_off, 0) - transaction_amount) over (partition by r.partner_id, r.legal_name) as bal,
      case when addenda_related like 'C%' and transaction_amount = 0 then 'NOC'
           when (merchant_status = 'Active' and rej_res in ('Write Off', 'Sent to Collections'))
             or (rej_res = 'Used Reserve - PARTIAL' and coalesce(write_off, 0) + coalesce(sent_to_coll, 0) > 0)
             then 'resurrect'
           when rej_res is null or rej_res = 'Will Be Sent to Coll.' then 'unresolved' else 'reject closed' end as cls,
      coalesce(l.n, 0) as mids
    from ach_returns r left join (select partner_id, legal_name, count(*) as n from merchants group by 1, 2) l
      on l.partner_id = r.partner_id and l.legal_name = r.legal_name) a`;
    return async () => {
      await sql.raw(`select * from ${from} where ${where} order by ${order} limit 25`).execute(db);
      await sql.raw(`select count(*), sum(transaction_amount) from ${from} where ${where}`).execute(db);
    };
  }
  const achAlertWhere = 'bal < 0 and coalesce(rsv_balance, 0) > 0 and mids > 1';
  const achQueries: Array<[string, Record<string, unknown>, string, string]> = [
    ['default order (file date, newest first)', {}, 'true', 'file_creation_date desc, id desc'],
    [
      'class unresolved, by merchRejBal',
      {
        filters: [{ id: 'classification', kind: 'select', values: ['unresolved'] }],
        sort: [{ id: 'merchRejBal', desc: false }],
      },
      "cls = 'unresolved'",
      'bal, id desc',
    ],
    [
      'Alert Yes',
      { filters: [{ id: 'Alert', kind: 'select', values: ['Yes'] }] },
      achAlertWhere,
      'file_creation_date desc, id desc',
    ],
    [
      'R01 and R10 since 2026, by amount',
      {
        filters: [
          { id: 'AddendaRelated', kind: 'select', values: ['R01', 'R10'] },
          { id: 'FileCreationDATE', kind: 'dateRange', from: '2026-01-01', to: null },
        ],
        sort: [{ id: 'TransactionAmount', desc: true }],
      },
      "addenda_related in ('R01', 'R10') and file_creation_date >= '2026-01-01'",
      'transaction_amount desc, id desc',
    ],
    [
      'resolution Used Reserve, by occurrence',
      {
        filters: [{ id: 'rejRes', kind: 'select', values: ['Used Reserve'] }],
        sort: [{ id: 'occurrence', desc: true }],
      },
      "rej_res = 'Used Reserve'",
      'occurrence desc, id desc',
    ],
    [
      'ISO name "Summit", by entry date',
      {
        filters: [{ id: 'GroupLevel1Name', kind: 'text', value: 'Summit' }],
        sort: [{ id: 'EffectiveEntryDATE', desc: false }],
      },
      "lower(iso_name) like 'summit%'",
      'effective_entry_date, id desc',
    ],
    [
      'search "sm", by DBA',
      { search: 'sm', sort: [{ id: 'DBAName', desc: false }] },
      "lower(mid) like 'sm%' or lower(dba_name) like 'sm%' or lower(legal_name) like 'sm%'",
      'dba_name, id desc',
    ],
    [
      'merchRejBal ≤ −1,000, page 20 of 100',
      { filters: [{ id: 'merchRejBal', kind: 'range', min: null, max: -1000 }], page: 20, pageSize: 100 },
      'bal <= -1000',
      'file_creation_date desc, id desc',
    ],
  ];
  const achRows: Row[] = [];
  for (const [question, body, where, order] of achQueries) {
    const d = await timed(() => post('/api/app/ach/query', body), RUNS);
    const b = await timed(straightforwardAch(where, order), BASELINE_RUNS);
    achRows.push(measured(`/api/app/ach/query: ${question}`, d, b));
  }
  // An edit of a money column (it moves the legal name's balance) on a row of the legal name with the most rows,
  // alternating two values; the row, its legal name's derived columns and its history are put back afterwards.
  const achTarget = await sql<{
    id: number;
    used_rsv: string | null;
    worked_by: string | null;
    datetime_worked: Date | null;
    version: number;
    partner_id: number;
    legal_name: string;
  }>`
  select r.id, r.used_rsv::text, r.worked_by, r.datetime_worked, r.version, r.partner_id, r.legal_name
  from ach_returns r
  join (select partner_id, legal_name from ach_returns group by 1, 2 order by count(*) desc limit 1) l
    using (partner_id, legal_name)
  where r.historic = 0 order by r.id desc limit 1`.execute(db);
  const achRow = achTarget.rows[0];
  if (!achRow) throw new Error('No ACH row to edit: is the ACH data seeded?');
  const achBefore = await sql<{ max: number | null }>`select max(id) as max from ach_history`.execute(db);
  let achFlip = 0;
  const achEdit = await timed(
    () =>
      post('/api/updateACH', {
        unique_key: achRow.id,
        column: 'usedRsv',
        value: achFlip++ % 2 === 0 ? '1.00' : '2.00',
        historic: 0,
      }),
    RUNS,
  );
  const achEditPlain = await timed(async () => {
    await db.transaction().execute(async (trx) => {
      // The plain edit: the row and its history, balances computed when read (as the straightforward queries do).
      await sql`update ach_returns set used_rsv = ${achFlip++ % 2 === 0 ? '1.00' : '2.00'}, worked_by = 'bench',
      datetime_worked = now() where id = ${achRow.id}`.execute(trx);
      await sql`insert into ach_history (ach_return_id, partner_id, column_name, old_value, new_value, changed_by)
      values (${achRow.id}, ${achRow.partner_id}, 'usedRsv', null, '1.00', 'bench')`.execute(trx);
    });
  }, BASELINE_RUNS);
  await db.transaction().execute(async (trx) => {
    await sql`update ach_returns set used_rsv = ${achRow.used_rsv}, worked_by = ${achRow.worked_by},
    datetime_worked = ${achRow.datetime_worked}, version = ${achRow.version} where id = ${achRow.id}`.execute(
      trx,
    );
    await sql`delete from ach_history where id > ${achBefore.rows[0]?.max ?? 0}`.execute(trx);
    const { refreshAchDerived } = await import('../src/areas/ach/queries');
    await refreshAchDerived(trx, { partnerId: achRow.partner_id, legalName: achRow.legal_name });
    await sql`update ach_totals t set used_rsv = (select coalesce(sum(used_rsv), 0) from ach_returns r
      where r.partner_id = t.partner_id and coalesce(r.iso_name, '') = t.iso_name)
      where t.partner_id = ${achRow.partner_id}`.execute(trx);
  });
  achRows.push({
    question: '/api/updateACH usedRsv (row, history, the legal name’s balance, totals and answer row)',
    p50: ms(achEdit.p50),
    p95: ms(achEdit.p95),
    target: within(achEdit.p95, 20),
    straightforward_p50: ms(achEditPlain.p50),
    straightforward_p95: ms(achEditPlain.p95),
  });
  // The panel; straightforward = the 60 days summed from the debit entries and the returns at each call.
  const rateDay = await sql<{
    d: string;
  }>`select coalesce(max(as_of), current_date)::text as d from ach_rate_window`.execute(db);
  const rateTo = rateDay.rows[0]?.d ?? '';
  function straightforwardRates(group: string) {
    return () =>
      sql
        .raw(`with e as (select merchant_id, sum(entries) as n from ach_debit_entries
              where day between date '${rateTo}' - 59 and '${rateTo}' group by 1),
            r as (select merchant_id, count(*) as n,
                    count(*) filter (where addenda_related in ('R05', 'R07', 'R10', 'R11', 'R29', 'R51')) as u,
                    count(*) filter (where addenda_related in ('R02', 'R03', 'R04')) as a
                  from ach_returns where effective_entry_date between date '${rateTo}' - 59 and '${rateTo}'
                    and addenda_related like 'R%' group by 1),
            g as (select ${group} as k, coalesce(sum(e.n), 0) as n, coalesce(sum(r.n), 0) as ret,
                    coalesce(sum(r.u), 0) as u, coalesce(sum(r.a), 0) as a
                  from merchants m join partners p on p.id = m.partner_id
                  left join e on e.merchant_id = m.id left join r on r.merchant_id = m.id
                  where e.n > 0 or r.n > 0 group by 1)
            select * from g order by (u * 1000 > 5 * n or a * 100 > 3 * n or ret * 100 > 15 * n) desc,
              greatest(u::float8 / nullif(n, 0) / 0.005, a::float8 / nullif(n, 0) / 0.03,
                       ret::float8 / nullif(n, 0) / 0.15) desc nulls last limit 50`)
        .execute(db);
  }
  for (const level of ['merchant', 'iso'] as const) {
    const d = await timed(() => post('/api/app/ach/returnRates', { level }), RUNS);
    const b = await timed(
      straightforwardRates(level === 'merchant' ? 'm.mid' : 'p.account_name'),
      BASELINE_RUNS,
    );
    achRows.push({
      question: `/api/app/ach/returnRates per ${level} (60 days, top 50)`,
      p50: ms(d.p50),
      p95: ms(d.p95),
      target: within(d.p95),
      straightforward_p50: ms(b.p50),
      straightforward_p95: ms(b.p95),
    });
  }
  printTable('ACH returns (through the HTTP stack)', achRows);
}

if (section('bonus')) {
  /** Thrown to roll a measured run back. */
  class RollBack extends Error {}
  // Bonus runs: the last due monthly window and clawback run, recomputed and stored (the work of the scheduled
  // job, in one transaction, rolled back so each measurement starts from the same rows). Then the two reads.
  const bonusRows: Record<string, string>[] = [];
  /** A read's row: its p50 and p95 through the HTTP stack, against the 25-ms bound. */
  const readRow = (question: string, d: { p50: number; p95: number }) =>
    bonusRows.push({ question, p50: ms(d.p50), p95: ms(d.p95), target: within(d.p95) });
  const today = todayIso;
  for (const kind of ['M', 'CB'] as const) {
    const window = lastDueWindow(kind, today);
    if (!window) continue;
    const times: number[] = [];
    let written = 0;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await db
        .transaction()
        .execute(async (trx) => {
          written = (await runWindow(trx, window, null)).written;
          throw new RollBack();
        })
        .catch((e) => {
          if (!(e instanceof RollBack)) throw e;
        });
      times.push(performance.now() - start);
    }
    const worst = Math.max(...times);
    bonusRows.push({
      question: `${kind === 'M' ? 'monthly bonus' : 'clawback'} run ${window.start}..${window.end} (${written} rows)`,
      p50: ms(percentile(times, 50)),
      p95: ms(worst),
      target: `≤ 10 s ${worst <= 10_000 ? '✓' : '✗'}`,
    });
  }
  const monthly = lastDueWindow('M', today);
  const clawback = lastDueWindow('CB', today);
  if (monthly) {
    // The answer is kept until a table it reads changes (platform/answerCache.ts): asked again, and first asked
    // after a change.
    // Also as a browser asks (accepting gzip: the kept answer's compressed bytes, made once).
    const body = { bonusType: 'M', date: monthly.end };
    const call = () => post('/api/bonus/GetBonus', body);
    const browser = () => askAsBrowser('POST', '/api/bonus/GetBonus', body);
    for (const [question, d] of [
      ['GetBonus (last monthly window)', await timed(call, RUNS)],
      [
        'GetBonus (last monthly window), first ask after a change',
        await timedAfterChange('bonus', call, RUNS),
      ],
      ['GetBonus (last monthly window), as a browser asks (gzip)', await timed(browser, RUNS)],
      [
        'GetBonus (last monthly window), as a browser asks, first ask after a change',
        await timedAfterChange('bonus', browser, RUNS),
      ],
    ] as const)
      readRow(question, d);
  }
  if (clawback) {
    // Kept like GetBonus (the same answer version): asked again, and first asked after a change.
    const call = () => post('/api/bonus/GetClawback', { date: clawback.runDate });
    for (const [question, d] of [
      ['GetClawback (last run)', await timed(call, RUNS)],
      ['GetClawback (last run), first ask after a change', await timedAfterChange('bonus', call, RUNS)],
    ] as const)
      readRow(question, d);
  }
  // The screen's other lists: the activation list (each merchant approved in the last weeks, with its volume
  // since approval against its group's threshold) and the matches. Both are kept until a table they read changes
  // (platform/answerCache.ts): asked again, and first asked after a change (every part of the activation list, as
  // after a daily import). The activation list is kept in parts by approval day: also first asked after one
  // merchant's edit (its DBA written, alternating two values, before each ask; put back afterwards).
  const { rows: lately } = await sql<{ id: number; dba: string }>`
    select id, dba from merchants where approved_on = current_date - 3 order by id limit 1`.execute(db);
  const edited = lately[0];
  let flip = false;
  const editOne = async () => {
    if (!edited) return;
    flip = !flip;
    await sql`update merchants set dba = ${flip ? `${edited.dba} (bench)` : edited.dba} where id = ${edited.id}`.execute(
      db,
    );
  };
  for (const [question, url, answer] of [
    [
      'GetActivation (merchants approved in the lookback, with their volume)',
      '/api/bonus/GetActivation',
      'activation',
    ],
    ['GetMatches', '/api/bonus/GetMatches', 'bonus'],
  ] as const) {
    const ask = () => askAsBrowser('GET', url);
    const measures: [string, Awaited<ReturnType<typeof timed>>][] = [
      [question, await timed(ask, RUNS)],
      [`${question}, first ask after a change`, await timedAfterChange(answer, ask, RUNS)],
    ];
    if (answer === 'activation' && edited) {
      try {
        measures.push([
          `${question}, first ask after a merchant's edit`,
          await timedAfterWrite(editOne, ask, RUNS),
        ]);
      } finally {
        await sql`update merchants set dba = ${edited.dba} where id = ${edited.id}`.execute(db);
      }
    }
    if (answer === 'activation') {
      // Yesterday's figures written again, a cent less then a cent more (and as they were afterwards),
      // for every merchant approved in the lookback, as the daily import writes them: the kept rows of the merchants
      // within their volume days change (migration 2026_12_18_0010), and their days' parts are made again.
      let sign = 1;
      const daily = async () => {
        sign = -sign;
        await sql`update merchant_daily d set volume = d.volume + ${sign * 0.01}
          from merchants m where m.id = d.merchant_id and d.day = current_date - 1
            and m.approved_on >= current_date - 90`.execute(db);
      };
      measures.push([
        `${question}, first ask after yesterday's figures were written`,
        await timedAfterWrite(daily, ask, RUNS),
      ]);
      // An odd number of writes left them a cent less: once more.
      if (sign < 0) await daily();
    }
    for (const [label, d] of measures) readRow(label, d);
  }
  printTable('Bonus (runs in a rolled-back transaction; reads through the HTTP stack)', bonusRows);
}

if (section('pci')) {
  const pciRows: Record<string, string>[] = [];
  // The Merchants table: the first page, a DBA prefix, a sort by fee, the non-compliant ones; beside each, the
  // same question as straightforward SQL.
  const merchantQueries: [string, object, ReturnType<typeof sql>][] = [
    [
      'first page',
      {},
      sql`select p.mid, m.dba from pci_merchants p join merchants m on m.id = p.merchant_id
        where p.merchant_status = '' order by p.mid limit 25`,
    ],
    [
      'DBA starts with "gol"',
      { filters: [{ id: 'dba_name', kind: 'text', value: 'gol' }] },
      sql`select p.mid, m.dba from pci_merchants p join merchants m on m.id = p.merchant_id
        where p.merchant_status = '' and lower(m.dba) like 'gol%' order by p.mid limit 25`,
    ],
    [
      'sorted by DBA, descending',
      { sort: [{ id: 'dba_name', desc: true }] },
      sql`select p.mid, m.dba from pci_merchants p join merchants m on m.id = p.merchant_id
        where p.merchant_status = '' order by m.dba desc, p.merchant_id limit 25`,
    ],
    [
      'sorted by Non-Comp Fee',
      { sort: [{ id: 'pci_noncomp_fee', desc: true }] },
      sql`select p.mid from pci_merchants p where p.merchant_status = '' order by p.pci_noncomp_fee desc, p.merchant_id limit 25`,
    ],
    [
      'Non-Compliant',
      { filters: [{ id: 'pci_compliant', kind: 'select', values: ['Non-Compliant'] }] },
      sql`select p.mid from pci_merchants p where p.merchant_status = '' and not p.pci_compliant order by p.mid limit 25`,
    ],
  ];
  for (const [name, body, plain] of merchantQueries) {
    const d = await timed(() => post('/api/app/pci/merchants/query', body), RUNS);
    const b = await timed(() => plain.execute(db), BASELINE_RUNS);
    pciRows.push({
      question: `Merchants table: ${name}`,
      p50: ms(d.p50),
      p95: ms(d.p95),
      // Issue 18 holds the areas built since the first wave to the same bar as the others.
      target: within(d.p95),
      straightforward_p50: ms(b.p50),
      straightforward_p95: ms(b.p95),
    });
  }
  // The Old Merchants tab (closed merchants' PCI rows): its first page, and the whole list the older client asked
  // for (GetHistoricMerchants, every closed merchant with its bank numbers in clear for this admin).
  {
    const closed = sql`from pci_merchants p join merchants m on m.id = p.merchant_id where m.status = 'Closed'`;
    const billed = addMonths(thisMonth, -1);
    const billedBody = { year: Number(billed.slice(0, 4)), month: Number(billed.slice(5, 7)) };
    for (const [question, call, plain] of [
      [
        'Old Merchants table: first page',
        () => post('/api/app/pci/oldMerchants/query', {}),
        sql`select p.mid, m.dba, (select count(*) ${closed}) ${closed} order by p.mid limit 25`,
      ],
      [
        'Billing table: last month, first page',
        () => post('/api/app/pci/billing/query', billedBody),
        sql`select b.mid, (select count(*) from pci_billing where month = ${billed}::date)
          from pci_billing b where b.month = ${billed}::date order by b.mid limit 25`,
      ],
      [
        'Commissions table: last month, first page',
        () => post('/api/app/pci/commissions/query', billedBody),
        sql`select b.mid, (select count(*) from pci_billing where month = ${billed}::date
            and iso_rev_share is not null)
          from pci_billing b where b.month = ${billed}::date and b.iso_rev_share is not null
          order by b.mid limit 25`,
      ],
    ] as const) {
      const d = await timed(call, RUNS);
      const b = await timed(() => plain.execute(db), BASELINE_RUNS);
      pciRows.push({ ...measured(question, d, b) });
    }
    // The whole list is kept until a PCI row or a partner is written (platform/answerCache.ts): asked again as a
    // browser asks (accepting gzip), and first asked after a change (each of those decrypts every bank number).
    const askHistoric = () => askAsBrowser('GET', '/api/pci/GetHistoricMerchants');
    const historicPlain = await timed(
      () => sql`select p.mid, m.dba, p.aba_number, p.dda_number ${closed} order by p.mid`.execute(db),
      BASELINE_RUNS,
    );
    // Kept in parts by MID prefix: one old merchant's row written (its DBA written again, as an edit would) makes its
    // prefix's part decrypted and compressed again; the answer's own version (a truncate, or a server just started)
    // every part.
    const { rows: oneClosed } = await sql<{ mid: string }>`select mid from pci_merchants where merchant_closed
      order by mid limit 1 offset 1000`.execute(db);
    const editedMid = oneClosed[0]?.mid ?? '';
    for (const [label, d] of [
      ['asked again', await timed(askHistoric, RUNS)],
      [
        'first ask after one old merchant is edited',
        await timedAfterWrite(
          () => sql`update pci_merchants set dba = dba where mid = ${editedMid}`.execute(db),
          askHistoric,
          RUNS,
        ),
      ],
      [
        'first ask after every part changed (a truncate)',
        await timedAfterChange('pci_historic', askHistoric, Math.min(RUNS, 20)),
      ],
    ] as const)
      pciRows.push({
        ...measured(
          `GetHistoricMerchants (every closed merchant, bank numbers in clear), ${label}`,
          d,
          historicPlain,
        ),
      });
  }

  // The current month's billing run over every open merchant, with its NACHA file, in a transaction rolled back
  // so each measurement starts from the same rows; in a process of its own (as the spreadsheet jobs), so its peak
  // memory is the run's and not what this process gathered before.
  const already = await db
    .selectFrom('pci_billing_runs')
    .select('id')
    .where('month', '=', thisMonth)
    .executeTakeFirst();
  if (already)
    console.log(
      `The bench database has already billed ${thisMonth.slice(0, 7)}: the run answers its kept file.`,
    );
  // A rolled-back run leaves its 50,000–150,000 rows dead in the table and its unique index, which the next run's
  // inserts would step over (a real run, once a month, writes into a vacuumed table): vacuumed before each run.
  const runs: ReturnType<typeof child>[] = [];
  for (let i = 0; i < 3; i++) {
    await sql`vacuum pci_billing`.execute(db);
    runs.push(child(['pci-run', thisMonth]));
  }
  const { entries, bytes } = JSON.parse(runs[0]?.body ?? '{}') as { entries: number; bytes: number };
  const runTimes = runs.map((r) => r.seconds * 1000);
  const worstRun = Math.max(...runTimes);
  const peakMb = Math.max(...runs.map((r) => r.peakMb));
  const baselineMb = Math.max(...runs.map((r) => r.baselineMb));
  pciRows.push({
    question: `billing run ${thisMonth.slice(0, 7)}: ${entries} debits, file ${(bytes / 1_048_576).toFixed(1)} MB (own process: ${baselineMb} MB before, peak ${peakMb} MB)`,
    p50: ms(percentile(runTimes, 50)),
    p95: ms(worstRun),
    target: `≤ 10 s ${worstRun <= 10_000 ? '✓' : '✗'}, ≤ 400 MB ${peakMb <= 400 ? '✓' : '✗'}`,
    straightforward_p50: '—',
    straightforward_p95: '—',
  });

  // GetCommissions of the last billed month (every ISO's rows, as internal staff read it), asked as a browser asks
  // (accepting gzip: the kept answer goes out compressed), and first asked after a change.
  const commissionMonth = addMonths(thisMonth, -1);
  const body = { year: Number(commissionMonth.slice(0, 4)), month: Number(commissionMonth.slice(5, 7)) };
  const plainAnswer = await post('/api/pci/GetCommissions', body);
  const commissions = plainAnswer.json().length as number;
  const askZipped = () => askAsBrowser('POST', '/api/pci/GetCommissions', body);
  const zippedMb = ((await askZipped()).bytes.length / 1_048_576).toFixed(1);
  const jsonMb = (plainAnswer.rawPayload.length / 1_048_576).toFixed(1);
  const b = await timed(
    () =>
      sql`select b.mid, m.dba, pa.account_name, b.amount, b.iso_cost, b.iso_rev_share, b.amount_due
        from pci_billing b join merchants m on m.id = b.merchant_id join partners pa on pa.id = b.partner_id
        where b.month = ${commissionMonth}::date and b.iso_rev_share is not null order by pa.account_name, b.mid`.execute(
        db,
      ),
    BASELINE_RUNS,
  );
  for (const [label, d] of [
    [`(${jsonMb} MB of JSON, ${zippedMb} MB sent gzip), asked again`, await timed(askZipped, RUNS)],
    ['first ask after a change', await timedAfterChange('pci_billing', askZipped, Math.min(RUNS, 20))],
  ] as const) {
    pciRows.push({
      question: `GetCommissions ${commissionMonth.slice(0, 7)} (${commissions} rows) ${label}`,
      p50: ms(d.p50),
      p95: ms(d.p95),
      target: label.startsWith('first') ? '—' : `p95 ≤ 100 ms ${d.p95 <= 100 ? '✓' : '✗'}`,
      straightforward_p50: ms(b.p50),
      straightforward_p95: ms(b.p95),
    });
  }
  console.log('\nPCI (reads through the HTTP stack; the billing run in a rolled-back transaction)');
  console.table(pciRows);
}

if (section('leads')) {
  // GetLeads: the whole picker list (10,000 leads at the large scale) through the HTTP stack, beside the same rows
  // read by plain SQL.
  const leadRows: Record<string, string>[] = [];
  const { rows: count } = await sql<{ n: number }>`select count(*)::int as n from crm_leads`.execute(db);
  const d = await timed(() => get('/api/leads/GetLeads'), RUNS);
  const base = await timed(
    () =>
      sql`select lead_id, name, company, status, created_date, owner_name from crm_leads
          order by created_date desc, lead_id`.execute(db),
    BASELINE_RUNS,
  );
  leadRows.push({
    question: `GetLeads (${count[0]?.n ?? 0} leads)`,
    p50: ms(d.p50),
    p95: ms(d.p95),
    straightforward_p95: ms(base.p95),
    target: within(d.p95),
  });
  // As a browser asks: accepting gzip, it gets the kept compressed bytes.
  const zipped = await timed(async () => {
    const { encoding } = await askAsBrowser('GET', '/api/leads/GetLeads');
    if (encoding !== 'gzip') throw new Error('GetLeads was not sent compressed');
  }, RUNS);
  leadRows.push({
    question: 'GetLeads, as a browser asks (gzip)',
    p50: ms(zipped.p50),
    p95: ms(zipped.p95),
    straightforward_p95: ms(base.p95),
    target: within(zipped.p95),
  });

  // The four automatic checks of one lead run together on the sandbox provider, worked by a queue of their own
  // (the production worker settings); the lead's rows are removed afterwards.
  const sandbox = new SandboxChecks();
  const checkWorkers = await Jobs.start({
    connected,
    definitions: Object.values(
      checkJobs({ DataX: sandbox, Match: sandbox, TinCheck: sandbox, Giact: sandbox }, 60),
    ),
    work: true,
    schedule: false,
    log: { info: () => {}, warn: console.warn, error: console.error },
  });
  const { rows: oldest } = await sql<{ lead_id: string }>`
    select lead_id from crm_leads order by created_date, lead_id limit 1`.execute(db);
  const leadId = oldest[0]?.lead_id;
  if (!leadId) throw new Error('No CRM leads to run checks on');
  await post('/api/leads/AddLead', {
    lead_id: leadId,
    first_name: 'Bench',
    last_name: 'Applicant',
    ssn: '123-45-6789',
    dob: '1980-04-25',
    home_address: '1 Bench St',
    home_city: 'Austin',
    home_state: 'TX',
    home_zip: '78701',
    legal_name: 'Bench LLC',
    business_address_1: '1 Bench St',
    business_city: 'Austin',
    business_state: 'TX',
    business_zip: '78701',
    aba_number: '021000021',
    dda_number: '123456789',
  });
  const together: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await post('/api/leads/RunChecks', { lead_id: leadId, check_name: 'All' });
    for (;;) {
      const answer = (await post('/api/leads/GetChecks', { lead_id: leadId })).json() as {
        checks: { check_type: string; runtime_status: string | null }[];
      };
      const auto = answer.checks.filter((c) => c.check_type !== 'LexisNexis');
      if (auto.every((c) => c.runtime_status === 'finished' || c.runtime_status === 'stopped')) break;
      if (performance.now() - start > 60_000) throw new Error('The checks did not end within a minute');
      await new Promise((r) => setTimeout(r, 50));
    }
    together.push(performance.now() - start);
  }
  await checkWorkers.stop();
  const { rows: docs } = await sql<{ id: number }>`
    select id from documents where kind = 'lead_check' and filename like ${`%-${leadId}-%`}`.execute(db);
  await db.deleteFrom('lead_checks').where('lead_id', '=', leadId).execute();
  if (docs.length > 0)
    await db
      .deleteFrom('documents')
      .where(
        'id',
        'in',
        docs.map((r) => r.id),
      )
      .execute();
  await db.deleteFrom('lead_steps').where('lead_id', '=', leadId).execute();
  await db.deleteFrom('lead_forms').where('lead_id', '=', leadId).execute();
  const worst = Math.max(...together);
  leadRows.push({
    question: 'the four sandbox checks of a lead, run together (RunChecks to all finished)',
    p50: ms(percentile(together, 50)),
    p95: ms(worst),
    straightforward_p95: '',
    target: `≤ 10 s ${worst <= 10_000 ? '✓' : '✗'}`,
  });
  console.log('\nLeads (through the HTTP stack; checks worked by background jobs)');
  console.table(leadRows);
}

if (section('bi')) {
  // ISO analytics and the executive ISO calls (issue 14), through the HTTP stack, for all groups, the largest
  // ISO's groups and the largest ISO's group IDs. Straightforward = the same sums over the raw merchant,
  // activity and income rows. Goals: the issue's (analytics all groups ≤ 100 ms, one ISO ≤ 30 ms, each
  // executive call ≤ 50 ms) and docs/bi.md's 25 ms per executive call.
  const largest = (
    await sql<{ partner_id: number; group_names: string[]; group_ids: string[] }>`
      select m.partner_id, array_agg(distinct g.group_name) as group_names, array_agg(distinct g.group_id) as group_ids
      from merchants m join groups g on g.group_id = m.group_id
      group by m.partner_id order by count(*) desc limit 1`.execute(db)
  ).rows[0];
  if (!largest) throw new Error('No ISO with merchants');
  const year12 = addMonths(thisMonth, -12);
  const since30 = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const ids = largest.group_ids;
  const biRows: Row[] = [];
  // The last field: the answer is kept until its data changes (platform/answerCache.ts); the first ask after a
  // change is timed in a row of its own.
  const biCalls: [string, () => Promise<unknown>, () => Promise<unknown>, number, boolean?][] = [
    [
      '/api/isoanalyticsdata, all groups, every month',
      () => post('/api/isoanalyticsdata', {}),
      async () => {
        await sql`select g.group_name, date_trunc('month', m.approved_on), count(*) from merchants m
          join groups g on g.group_id = m.group_id group by 1, 2`.execute(db);
        await sql`select state, count(*) from merchants where closed_on is null group by 1`.execute(db);
        await sql`select m.group_id, count(distinct m.id), sum(i.net), sum(i.payouts) from merchants m
          left join merchant_income i on i.merchant_id = m.id group by 1`.execute(db);
      },
      100,
      true,
    ],
    [
      `/api/isoanalyticsdata, the largest ISO's ${largest.group_names.length} groups`,
      () => post('/api/isoanalyticsdata', { groups: largest.group_names }),
      () =>
        sql`select m.group_id, count(distinct m.id), sum(i.net), sum(i.payouts) from merchants m
          left join merchant_income i on i.merchant_id = m.id where m.partner_id = ${largest.partner_id} group by 1`.execute(
          db,
        ),
      30,
      true,
    ],
    [
      '/api/exec/iso/GetAllInformation',
      () => get('/api/exec/iso/GetAllInformation'),
      () =>
        sql`select partner_id, count(*), min(approved_on), max(approved_on), count(*) filter (where closed_on is null)
          from merchants group by 1`.execute(db),
      25,
      true,
    ],
    [
      '/api/exec/iso/GetTransactions, the largest ISO, last 12 months',
      () => post('/api/exec/iso/GetTransactions', { groupIDs: ids, date: year12, monthly: true, mcc: 'All' }),
      () =>
        sql`select a.month, sum(a.volume), sum(a.transactions) from merchant_monthly a join merchants m on m.id = a.merchant_id
          where m.group_id in (${sql.join(ids)}) and a.month >= ${year12}::date group by 1`.execute(db),
      25,
    ],
    [
      '/api/exec/iso/GetTransactions, the largest ISO, last 30 days',
      () =>
        post('/api/exec/iso/GetTransactions', { groupIDs: ids, date: since30, monthly: false, mcc: 'All' }),
      () =>
        sql`select a.day, sum(a.volume), sum(a.transactions) from merchant_daily a join merchants m on m.id = a.merchant_id
          where m.group_id in (${sql.join(ids)}) and a.day >= ${since30}::date group by 1`.execute(db),
      25,
    ],
    [
      '/api/exec/iso/isoGetIncome, the largest ISO, last 12 months',
      () => post('/api/exec/iso/isoGetIncome', { groupIDs: ids, date: year12, mcc: 'All' }),
      () =>
        sql`select i.month, sum(i.gross), sum(i.net) from merchant_income i join merchants m on m.id = i.merchant_id
          where m.group_id in (${sql.join(ids)}) and i.month >= ${year12}::date group by 1`.execute(db),
      25,
    ],
    [
      '/api/exec/iso/GetMCC, the largest ISO',
      () => post('/api/exec/iso/GetMCC', { groupIDs: ids }),
      () =>
        sql`select mcc, count(*) from merchants where group_id in (${sql.join(ids)}) group by 1`.execute(db),
      25,
    ],
  ];
  for (const [question, call, plain, target, kept] of biCalls) {
    const b = await timed(plain, BASELINE_RUNS);
    const runs: [string, { p50: number; p95: number }][] = [[question, await timed(call, RUNS)]];
    if (kept) runs.push([`${question}, first ask after a change`, await timedAfterChange('bi', call, RUNS)]);
    // The every-group chart is kept while no group's approvals change (areas/bi/queries.ts, approvalsGraph), as
    // through the change above: also first asked after a merchant's approval moves a month (and back, by turns;
    // the derived rollups refreshed, untimed), which writes the chart afresh.
    const mover = question.includes('all groups')
      ? (
          await sql<{ id: number; approved_on: string }>`
            select id, approved_on::text as approved_on from merchants
            where approved_on < ${addMonths(thisMonth, -3)}::date order by id limit 1`.execute(db)
        ).rows[0]
      : undefined;
    let moveRow: Row | undefined;
    if (mover) {
      const elsewhere = addMonths(`${mover.approved_on.slice(0, 7)}-01`, 1);
      let moved = false;
      const approveOn = async (day: string) => {
        await sql`update merchants set approved_on = ${day}::date where id = ${mover.id}`.execute(db);
        await refreshDerived(db, { table: 'merchants', ids: [mover.id] });
      };
      try {
        const moving = async () => {
          moved = !moved;
          await approveOn(moved ? elsewhere : mover.approved_on);
        };
        runs.push([
          `${question}, first ask after an approval moves a month`,
          await timedAfterWrite(moving, call, RUNS),
        ]);
        // The move itself: the merchant's update and the refresh of every table derived from it, which a user's
        // edit waits for and which holds the write queue (db/derived.ts). Bound: half a second.
        const write = await timed(moving, RUNS);
        moveRow = {
          question: "an approval moved a month: the merchant's update and its derived tables refreshed",
          p50: ms(write.p50),
          p95: ms(write.p95),
          target: within(write.p95, 500),
          straightforward_p50: '—',
          straightforward_p95: '—',
        };
      } finally {
        if (moved) await approveOn(mover.approved_on);
      }
    }
    for (const [label, d] of runs) biRows.push(measured(label, d, b, target));
    if (moveRow) biRows.push(moveRow);
  }
  console.log('\nBusiness Intelligence (through the HTTP stack)');
  console.table(biRows);
}

if (section('spreadsheets')) {
  // Export: every column of the Self Serve month, in a process of its own.
  const allColumns = (await import('@paydesk/domain')).selfServeTable.columns.map((col) => col.id);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-bench-'));
  fs.writeFileSync(path.join(tmp, 'export.json'), JSON.stringify({ dt: month, columns: allColumns }));
  const exported = child(['export', path.join(tmp, 'export.json'), path.join(tmp, 'export.xlsx')]);
  const exportedBook = new ExcelJS.Workbook();
  await exportedBook.xlsx.readFile(path.join(tmp, 'export.xlsx'));
  const exportRows = (exportedBook.worksheets[0]?.rowCount ?? 1) - 1;

  // Import: exactly 100,000 residual rows: the latest TSYS statements of real merchants, filed under
  // months far in the future (an import replaces whole months, so real months stay untouched), removed after.
  const FUTURE = ['2099-01', '2099-02', '2099-03'];
  // Each month is imported as a new month is: its rows deleted after, and the partition the import made for it
  // dropped (2026_12_02_0010_residuals_by_month), before (a run stopped half-way) and after.
  const removeFuture = async () => {
    await sql`delete from residuals where month >= '2099-01-01'`.execute(db);
    for (const ym of FUTURE)
      await sql`drop table if exists ${sql.table(`residuals_${ym.replace('-', '_')}`)}`.execute(db);
  };
  await removeFuture();
  const source = await sql<Record<string, unknown>>`
  select mid, dba, agent, office, payout_schedule, payout_to, transactions, volume, income,
         gross, net, ach_collected_gross, ach_collected_payout, ach_collected_net, ach_rejected_gross, ach_rejected_net,
         refunds_gross, refunds_payout, refunds_net, total_gross, total_payout, total_net, income1, expense, profit_loss
  from residuals where processor = 'TSYS' and month = ${residualMonth}::date order by mid limit 50000`.execute(
    db,
  );
  const file = path.join(tmp, 'residuals.xlsx');
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = writer.addWorksheet('Residual_TSYS');
  sheet
    .addRow((await import('@paydesk/domain')).uploadTypes.residual_tsys.columns.map((col) => col.header))
    .commit();
  let written = 0;
  for (const ym of FUTURE) {
    for (const r of source.rows) {
      if (written === 100_000) break;
      const values = Object.values(r).map((v) =>
        typeof v === 'string' && /^-?\d+\.\d+$/.test(v) ? Number(v) : v,
      );
      sheet.addRow([ym, ...values]).commit();
      written++;
    }
  }
  sheet.commit();
  await writer.commit();
  const importedStats = child(['import', '/api/uploadresidual_tsys', file]);
  if (importedStats.status !== 200)
    throw new Error(`import answered ${importedStats.status}: ${importedStats.body}`);
  const imported = JSON.parse(importedStats.body).rows as number;
  await removeFuture();
  fs.rmSync(file, { force: true });
  fs.rmSync(tmp, { recursive: true, force: true });

  // The goal is 3 s for 50,000 rows (the large scale's month); a larger month is held to the same rate. The
  // memory bound does not grow: the file streams to disk through a socket (bench/spreadsheet.ts).
  const exportBound = 3 * Math.max(1, exportRows / 50_000);
  printTable('Spreadsheets (each in a process of its own; peak = its resident memory)', [
    {
      job: `Export Self Serve ${month.slice(0, 7)}, all columns`,
      rows: exportRows,
      seconds: exported.seconds.toFixed(2),
      'peak MB': exported.peakMb,
      'process before, MB': exported.baselineMb,
      target: `≤ ${exportBound === 3 ? '3 s' : `${exportBound.toFixed(1)} s (3 s per 50,000 rows)`} ${exported.seconds <= exportBound ? '✓' : '✗'}, ≤ 400 MB ${exported.peakMb <= 400 ? '✓' : '✗'}`,
    },
    {
      job: 'Import Residual_TSYS (streamed, validated, all-or-nothing)',
      rows: imported,
      seconds: importedStats.seconds.toFixed(2),
      'peak MB': importedStats.peakMb,
      'process before, MB': importedStats.baselineMb,
      target: `≤ 6 s ${importedStats.seconds <= 6 ? '✓' : '✗'}, ≤ 300 MB ${importedStats.peakMb <= 300 ? '✓' : '✗'}`,
    },
  ]);
}

if (process.env.BENCH_RESULTS) {
  fs.writeFileSync(
    process.env.BENCH_RESULTS,
    JSON.stringify({ merchants: c?.merchants, isos: c?.isos, results }, null, 1),
  );
}
await closeApp();
await close();
