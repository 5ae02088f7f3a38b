import { addMonths, monthStart } from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/db/connect';
import { catchUpLiveDemo, type LiveDemoReport, MAX_DAYS_PER_RUN } from '../src/db/seed/live';
import { Client, migratedDatabase, type TestApp, testApp, testDatabase } from './helpers';

/**
 * The live demo catching up the seeded test database. The template was seeded at the wall clock's moment,
 * so every `now` here is that moment (demo_state.seeded_at) moved by whole days to a fixed time of day.
 */
const DAY = 86_400_000;
const day = (t: Date) => t.toISOString().slice(0, 10);

async function seededAt(db: Db): Promise<Date> {
  const row = await db.selectFrom('demo_state').select('seeded_at').executeTakeFirstOrThrow();
  return new Date(row.seeded_at);
}

/** `days` after the seed's day, at hh:mm UTC. */
const after = (seeded: Date, days: number, hhmm: string) =>
  new Date(Date.parse(`${day(new Date(seeded.getTime() + days * DAY))}T${hhmm}:00Z`));

const catchUp = (db: Db, now: Date, options: Parameters<typeof catchUpLiveDemo>[2] = {}) =>
  db.transaction().execute((trx) => catchUpLiveDemo(trx, now, options));

async function one<T>(db: Db, query: ReturnType<typeof sql<T>>): Promise<T> {
  const { rows } = await query.execute(db);
  return rows[0] as T;
}

/**
 * The oracle, from the raw rows: inside the daily window a merchant-month is the sum of its days and a month
 * without days is zero; the rollup's totals and per-ISO rows are the sums of the merchant-months; every
 * merchant-month has its Self Serve row with its volume and net income; income nets to gross − expenses.
 */
async function inconsistencies(db: Db) {
  return one<Record<string, number>>(
    db,
    sql`
    with days as (
      select merchant_id, date_trunc('month', day)::date as month, sum(volume) as volume, sum(transactions) as transactions,
             sum(chargeback_volume) as cbv, sum(chargebacks) as cb, sum(refund_volume) as rv, sum(refunds) as rf
      from merchant_daily group by 1, 2
    ), mm as (
      select a.month, a.merchant_id, m.partner_id, a.volume, a.transactions, coalesce(i.net, 0) as net
      from merchant_monthly a join merchants m on m.id = a.merchant_id
      left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
    ), expected_rollup as (
      select month, 'all' as dimension, '' as value, sum(volume) as volume, sum(transactions) as transactions,
             sum(net) as income, count(*)::int as merchants from mm group by month
      union all
      select month, 'partner', partner_id::text, sum(volume), sum(transactions), sum(net), count(*)::int
      from mm group by month, partner_id
    )
    select
      (select count(*)::int from days d left join merchant_monthly a on a.merchant_id = d.merchant_id and a.month = d.month
        where a.merchant_id is null
           or row(a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds)::text
              <> row(d.volume, d.transactions::int, d.cbv, d.cb::int, d.rv, d.rf::int)::text) as monthly_not_sum_of_days,
      (select count(*)::int from merchant_monthly a
        where a.month >= (select date_trunc('month', min(day)) from merchant_daily)
          and not exists (select 1 from days d where d.merchant_id = a.merchant_id and d.month = a.month)
          and a.volume <> 0) as monthly_without_days_not_zero,
      (select count(*)::int from expected_rollup e
        left join activity_rollup r on r.month = e.month and r.dimension = e.dimension and r.value = e.value
        where r.month is null or row(r.volume, r.transactions, r.income, r.merchants)::text
                                 <> row(e.volume, e.transactions, e.income, e.merchants)::text) as rollup_wrong,
      (select count(*)::int from activity_rollup r where r.dimension = 'all'
        and not exists (select 1 from expected_rollup e where e.dimension = 'all' and e.month = r.month)) as rollup_extra,
      (select count(*)::int from mm left join selfserve_rows s on s.merchant_id = mm.merchant_id and s.month = mm.month
        where s.merchant_id is null or s.tx_amt <> mm.volume or s.income <> mm.net) as selfserve_wrong,
      (select count(*)::int from selfserve_rows s
        where not exists (select 1 from merchant_monthly a where a.merchant_id = s.merchant_id and a.month = s.month)) as selfserve_extra,
      (select count(*)::int from merchant_income where net <> gross - expenses) as income_not_netted,
      (select count(*)::int from merchant_monthly a join demo_merchant_params dp on dp.merchant_id = a.merchant_id
        where not exists (select 1 from merchant_income i where i.merchant_id = a.merchant_id and i.month = a.month)) as months_without_income`,
  );
}
const CONSISTENT = {
  monthly_not_sum_of_days: 0,
  monthly_without_days_not_zero: 0,
  rollup_wrong: 0,
  rollup_extra: 0,
  selfserve_wrong: 0,
  selfserve_extra: 0,
  income_not_netted: 0,
  months_without_income: 0,
};

/**
 * Every table the live demo writes, as text without serial ids (a merchant is named by its MID), so two
 * databases that took different steps to the same moment compare equal.
 */
async function contents(db: Db): Promise<Record<string, string>> {
  const tables: Record<string, string> = {
    applications: `select (to_jsonb(x) - 'id' - 'merchant_id' || jsonb_build_object('mid', m.mid))::text as t
                   from applications x left join merchants m on m.id = x.merchant_id`,
    merchants: `select (to_jsonb(x) - 'id')::text as t from merchants x`,
    params: `select (to_jsonb(x) - 'merchant_id' || jsonb_build_object('mid', m.mid))::text as t
             from demo_merchant_params x join merchants m on m.id = x.merchant_id`,
    daily: `select (to_jsonb(x) - 'merchant_id' || jsonb_build_object('mid', m.mid))::text as t
            from merchant_daily x join merchants m on m.id = x.merchant_id`,
    monthly: `select (to_jsonb(x) - 'merchant_id' || jsonb_build_object('mid', m.mid))::text as t
              from merchant_monthly x join merchants m on m.id = x.merchant_id`,
    income: `select (to_jsonb(x) - 'merchant_id' || jsonb_build_object('mid', m.mid))::text as t
             from merchant_income x join merchants m on m.id = x.merchant_id`,
    selfserve: `select (to_jsonb(x) - 'merchant_id')::text as t from selfserve_rows x`,
    rollup: `select to_jsonb(x)::text as t from activity_rollup x`,
    residuals: `select (to_jsonb(x) - 'id' - 'merchant_id')::text as t from residuals x`,
    adjustments: `select (to_jsonb(x) - 'id' - 'merchant_id')::text as t from adjustments x`,
    state: `select to_jsonb(x)::text as t from demo_state x`,
  };
  const out: Record<string, string> = {};
  for (const [name, query] of Object.entries(tables)) {
    const { rows } = await sql
      .raw<{ n: number; h: string }>(
        `select count(*)::int as n, md5(string_agg(t, '|' order by t)) as h from (${query}) q`,
      )
      .execute(db);
    out[name] = `${rows[0]?.n} ${rows[0]?.h}`;
  }
  return out;
}

/** The live demo's applications as the raw rows hold them. */
async function liveApplications(db: Db) {
  const { rows } = await sql<{ key: string; status: string; submitted: Date; approved: Date | null }>`
    select k.key, a.status, a.submitted_at as submitted, a.approved_at as approved
    from demo_applications k join applications a on a.id = k.application_id`.execute(db);
  return new Map(rows.map((r) => [r.key, r]));
}

describe('catching up missed days', () => {
  let t: TestApp;
  let seeded: Date;
  beforeAll(async () => {
    t = await testApp();
    seeded = await seededAt(t.db);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it('adds two missed days of applications, approvals and activity, and every rollup stays the sum of its days', async () => {
    const now = after(seeded, 2, '22:00');
    const before = await one<{ apps: number; daily: number }>(
      t.db,
      sql`select (select count(*)::int from applications) as apps, (select count(*)::int from merchant_daily) as daily`,
    );
    const progress: number[] = [];
    const report = await catchUp(t.db, now, { progress: (p) => progress.push(p) });

    expect(report.outcome).toBe('caught_up');
    expect(report.to).toEqual(now);
    expect(report.days).toBe(3); // the rest of the seed's day and two more
    expect(report.activityDays).toBe(2);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toBe(100);

    // Activity for both completed days (the seed's day and the next), none for today yet.
    const { rows: daily } = await sql<{ day: string; n: number }>`
      select day::text, count(*)::int as n from merchant_daily where day >= ${day(seeded)}::date group by day order by day`.execute(
      t.db,
    );
    expect(daily.map((d) => d.day)).toEqual([day(seeded), day(after(seeded, 1, '00:00'))]);
    for (const d of daily) expect(d.n).toBeGreaterThan(100);
    expect(report.activityRows).toBe(daily.reduce((s, d) => s + d.n, 0));

    // The report's counts are the raw rows', and nothing is timed after `now` or before the seed's moment.
    const live = [...(await liveApplications(t.db)).values()];
    const apps = await one<{ apps: number; daily: number }>(
      t.db,
      sql`select (select count(*)::int from applications) as apps, (select count(*)::int from merchant_daily) as daily`,
    );
    expect(apps.apps - before.apps).toBe(report.applications);
    expect(live.length).toBe(report.applications);
    expect(live.filter((a) => a.status === 'Approved').length).toBe(report.approvals);
    expect(live.filter((a) => a.status === 'Declined' || a.status === 'Withdrawn').length).toBe(
      report.declined,
    );
    for (const a of live) {
      expect(a.submitted.getTime()).toBeLessThanOrEqual(now.getTime());
      if (a.approved) {
        expect(a.approved.getTime()).toBeGreaterThan(seeded.getTime());
        expect(a.approved.getTime()).toBeLessThanOrEqual(now.getTime());
      }
    }
    expect(apps.daily - before.daily).toBe(report.activityRows);

    expect(await inconsistencies(t.db)).toEqual(CONSISTENT);
  });

  it('adds nothing when run again with the same moment', async () => {
    const now = after(seeded, 2, '22:00');
    const before = await contents(t.db);
    const report = await catchUp(t.db, now);
    expect(report.outcome).toBe('up_to_date');
    expect(report.applications + report.approvals + report.activityRows).toBe(0);
    expect(await contents(t.db)).toEqual(before);
  });

  it("fills the sales dashboard's today and yesterday cards of later days", async () => {
    const now = after(seeded, 16, '22:00');
    await catchUp(t.db, now);
    expect(await inconsistencies(t.db)).toEqual(CONSISTENT);

    // The busiest caught-up day, counted from the raw rows, becomes the clock's today.
    const { rows } = await sql<{ day: string; submitted: number; approved: number }>`
      select d::date::text as day,
             (select count(*)::int from applications where submitted_at >= d and submitted_at < d + interval '1 day') as submitted,
             (select count(*)::int from applications where approved_at >= d and approved_at < d + interval '1 day') as approved
      from generate_series(${day(after(seeded, 2, '00:00'))}::timestamptz, ${day(after(seeded, 15, '00:00'))}::timestamptz, interval '1 day') d`.execute(
      t.db,
    );
    const busiest = [...rows].sort((a, b) => b.submitted + b.approved - (a.submitted + a.approved))[0];
    if (!busiest) throw new Error('no days');
    const previous = rows[rows.findIndex((r) => r.day === busiest.day) - 1];
    expect(busiest.submitted + busiest.approved).toBeGreaterThan(0);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${busiest.day}T23:30:00Z`));
    const admin = new Client(t.app);
    await admin.signin('admin@paydesk.local');
    const post = async (url: string) => {
      const res = await admin.post(url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await post('/api/submittedToday')).toEqual([{ Submitted: busiest.submitted }]);
    expect(await post('/api/approvedToday')).toEqual([{ Approved: busiest.approved }]);
    if (previous) {
      expect(await post('/api/submittedYest')).toEqual([{ Submitted: previous.submitted }]);
      expect(await post('/api/approvedYest')).toEqual([{ Approved: previous.approved }]);
    }
    vi.useRealTimers();
  });
});

describe('determinism', () => {
  let oneStep: Awaited<ReturnType<typeof testDatabase>>;
  let steps: Awaited<ReturnType<typeof testDatabase>>;
  beforeAll(async () => {
    oneStep = await testDatabase();
    steps = await testDatabase();
  });
  afterAll(async () => {
    await oneStep?.close();
    await steps?.close();
  });

  it('adds in each run only the events timed since the last, and ends where one run to the same moment ends', async () => {
    const seeded = await seededAt(steps.db);
    const moments = [after(seeded, 1, '10:00'), after(seeded, 1, '15:00'), after(seeded, 6, '20:00')];
    let last = seeded;
    let previous = await liveApplications(steps.db);
    const reports: LiveDemoReport[] = [];
    for (const now of moments) {
      reports.push(await catchUp(steps.db, now));
      const current = await liveApplications(steps.db);
      for (const [key, a] of current) {
        const before = previous.get(key);
        if (!before) {
          // Filed since the last run; the first run also files those the generator approves after the seed's
          // moment but filed before it.
          const filed = a.submitted > last && a.submitted <= now;
          const filedBeforeTheSeed = last === seeded && a.submitted <= seeded && key.includes(':approval:');
          expect(filed || filedBeforeTheSeed, key).toBe(true);
        } else if (before.status !== a.status) {
          expect(before.status).toBe('Pending');
          if (a.status === 'Approved') {
            expect(a.approved?.getTime()).toBeGreaterThan(last.getTime());
            expect(a.approved?.getTime()).toBeLessThanOrEqual(now.getTime());
          }
        }
      }
      previous = current;
      last = now;
    }
    expect(reports.reduce((s, r) => s + r.applications, 0)).toBeGreaterThan(0);

    const single = await catchUp(oneStep.db, moments[2] as Date);
    expect(single.applications).toBe(reports.reduce((s, r) => s + r.applications, 0));
    expect(single.approvals).toBe(reports.reduce((s, r) => s + r.approvals, 0));
    expect(await contents(steps.db)).toEqual(await contents(oneStep.db));
  });
});

describe('a database without demo data', () => {
  it('leaves a migrated, empty database untouched', async () => {
    const { db, close } = await migratedDatabase();
    try {
      const report = await catchUp(db, new Date('2030-01-01T12:00:00Z'));
      expect(report.outcome).toBe('not_demo');
      const counts = await one<Record<string, number>>(
        db,
        sql`select (select count(*)::int from applications) as applications, (select count(*)::int from merchants) as merchants,
                   (select count(*)::int from demo_state) as state`,
      );
      expect(counts).toEqual({ applications: 0, merchants: 0, state: 0 });
    } finally {
      await close();
    }
  });

  it('leaves real data alone: a database with merchants but no demo marker', async () => {
    const { db, close } = await testDatabase();
    try {
      const seeded = await seededAt(db);
      await db.deleteFrom('demo_state').execute();
      const before = await contents(db);
      const report = await catchUp(db, after(seeded, 5, '20:00'));
      expect(report.outcome).toBe('not_demo');
      expect(await contents(db)).toEqual(before);
    } finally {
      await close();
    }
  });
});

describe('merchants the generator did not make', () => {
  it('are left as they are in a demo database: no days, closures or income rewritten, their month records kept', async () => {
    const { db, close } = await testDatabase();
    try {
      const seeded = await seededAt(db);
      const month = monthStart(seeded);
      // An active merchant made "imported": no generator parameters, and this month a record without days. Chosen
      // by last month's volume: on a month's first day no merchant may have volume this month yet.
      const previous = addMonths(month, -1);
      const m = await one<{ id: number }>(
        db,
        sql`select a.merchant_id as id from merchant_monthly a join merchants m on m.id = a.merchant_id
            where a.month = ${previous}::date and a.volume > 0 and m.closed_on is null
            order by a.merchant_id limit 1`,
      );
      await db.deleteFrom('demo_merchant_params').where('merchant_id', '=', m.id).execute();
      await db
        .deleteFrom('merchant_daily')
        .where('merchant_id', '=', m.id)
        .where('day', '>=', month)
        .execute();
      // This month's record, made from last month's with other figures (the seed may not have made one yet).
      await db
        .deleteFrom('merchant_monthly')
        .where('merchant_id', '=', m.id)
        .where('month', '=', month)
        .execute();
      await sql`insert into merchant_monthly select (jsonb_populate_record(null::merchant_monthly, to_jsonb(a)
          || jsonb_build_object('month', ${month}::date, 'volume', 1234.56, 'transactions', 7))).*
        from merchant_monthly a where a.merchant_id = ${m.id} and a.month = ${previous}::date`.execute(db);
      const mine = (id: number) =>
        one<{ merchant: string; monthly: string; income: string; days: number }>(
          db,
          sql`select (select (to_jsonb(x))::text from merchants x where id = ${id}) as merchant,
                     (select string_agg(to_jsonb(a)::text, '|' order by month) from merchant_monthly a where merchant_id = ${id}) as monthly,
                     (select string_agg(to_jsonb(i)::text, '|' order by month) from merchant_income i where merchant_id = ${id}) as income,
                     (select count(*)::int from merchant_daily where merchant_id = ${id}) as days`,
        );
      const before = await mine(m.id);
      const report = await catchUp(db, after(seeded, 3, '20:00'));
      expect(report.activityRows).toBeGreaterThan(0);
      expect(await mine(m.id)).toEqual(before);
    } finally {
      await close();
    }
  });
});

describe('a long absence', () => {
  it(`catches up at most ${MAX_DAYS_PER_RUN} days a run, says more remains, and crosses month ends consistently`, async () => {
    const { db, close } = await testDatabase();
    try {
      const seeded = await seededAt(db);
      const now = after(seeded, 100, '12:00');
      const days: string[] = [];
      const first = await catchUp(db, now, {
        progress: (_, text) => {
          const d = /^Applications of (\d{4}-\d{2}-\d{2})$/.exec(text)?.[1];
          if (d) days.push(d);
        },
      });
      expect(first.outcome).toBe('partly');
      expect(first.to).toEqual(new Date(Date.parse(`${day(seeded)}T00:00:00Z`) + MAX_DAYS_PER_RUN * DAY));
      expect(first.activityDays).toBe(MAX_DAYS_PER_RUN);
      expect(first.days).toBe(MAX_DAYS_PER_RUN);
      expect(days.length).toBe(MAX_DAYS_PER_RUN);
      expect(days[0]).toBe(day(seeded));
      const state = await db.selectFrom('demo_state').select('caught_up_to').executeTakeFirstOrThrow();
      expect(new Date(state.caught_up_to)).toEqual(first.to);

      const second = await catchUp(db, now);
      expect(second.outcome).toBe('caught_up');
      expect(await inconsistencies(db)).toEqual(CONSISTENT);

      // The merchants it approved have what the bonus screens show of every merchant.
      const facts = await one<{ approved: number; missing: number }>(
        db,
        sql`select count(*)::int as approved,
               count(*) filter (where m.ownership_type is null or m.equipment_model is null)::int as missing
             from demo_applications k join applications a on a.id = k.application_id
             join merchants m on m.id = a.merchant_id`,
      );
      expect(facts.approved).toBeGreaterThan(0);
      expect(facts.missing).toBe(0);

      // Daily rows to yesterday; every month has its rows, and the residual statements reach two months back.
      const reach = await one<{ last_day: string; months: number; open_now: number; residual_month: string }>(
        db,
        sql`select (select max(day)::text from merchant_daily) as last_day,
                   (select count(*)::int from merchant_monthly where month = ${monthStart(now)}::date) as months,
                   (select count(*)::int from merchants m join demo_merchant_params dp on dp.merchant_id = m.id
                     where m.opened_on < ${day(now)}::date and (m.closed_on is null or m.closed_on >= ${monthStart(now)}::date)) as open_now,
                   (select max(month)::text from residuals) as residual_month`,
      );
      expect(reach.last_day).toBe(day(new Date(now.getTime() - DAY)));
      expect(reach.months).toBeGreaterThanOrEqual(reach.open_now);
      expect(reach.open_now).toBeGreaterThan(0);
      expect(reach.residual_month).toBe(addMonths(monthStart(now), -2));
      const residualMonths: string[] = [];
      for (
        let m = addMonths(monthStart(seeded), -1);
        m <= addMonths(monthStart(now), -2);
        m = addMonths(m, 1)
      ) {
        residualMonths.push(m);
      }
      expect([...first.residualMonths, ...second.residualMonths]).toEqual(residualMonths);
    } finally {
      await close();
    }
  });
});
