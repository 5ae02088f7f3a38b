import { createHash } from 'node:crypto';
import { addMonths, monthStart } from '@paydesk/domain';
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connect';
import { refreshDerived, type SourceChange } from '../derived';
import type { ApplicationsTable } from '../schema';
import { generateAdjustments, generateIncome, generateResiduals, insertDailyActivity } from './activity';
import { assignMerchantFacts } from './bonus';
import {
  DAY,
  type DrawContext,
  dayNumber,
  drawApplication,
  drawContext,
  drawMerchant,
  type GroupRow,
  goalsAndBudgets,
  HISTORY_START,
  isoDay,
  SCALES,
  type SeededPartner,
} from './generate';
import { enrollPciMerchant } from './pci';
import { Random } from './random';
import { bankHolidays } from './reference';
import { noiseOf, uniform } from './sqlNoise';

/**
 * The live demo: the seeded data stops at the moment it was made (demo_state.seeded_at); this carries it on to
 * `now` with the generator's own rules, so the "today" cards fill and every screen stays consistent.
 *
 * Every event comes from a generator seeded by the demo seed and the day, so a day's events are the same
 * whenever they are written, and the database after a run is a function of the moment it caught up to:
 * - a day's approvals: new merchants drawn as the seed draws them, each filed 1–14 days earlier, pending
 *   from then until approved;
 * - a day's other applications: pending, then declined or withdrawn 1–60 days later;
 * - each demo merchant activates and closes on the days the generator planned for it (demo_merchant_params);
 * - a completed day's activity, from the merchant's parameters and the same hashed noise as the seed; the
 *   months it falls in are re-summed and their income recomputed, through refreshDerived as imports do.
 * Events carry a time of day (13:00–23:00 UTC, as the seed's); a run writes those at or before `now` only.
 */

/** Runs stop after this many days; the report says more remains, and the next run carries on. */
export const MAX_DAYS_PER_RUN = 62;
/** The longest wait from filing to a decline or withdrawal. */
const MAX_DECISION_DAYS = 60;
/** The longest wait from filing to an approval, as in the seed. */
const MAX_APPROVAL_DAYS = 14;

export interface LiveDemoReport {
  /**
   * caught_up: the data now reaches `now`; partly: it reaches `to`, and a later run carries on (the run
   * stopped after `MAX_DAYS_PER_RUN` days); not_demo: the database has no demo marker, nothing was touched;
   * up_to_date: the data already reached `now`.
   */
  outcome: 'caught_up' | 'partly' | 'not_demo' | 'up_to_date';
  /** The moments the run caught up from and to (null when it did nothing). */
  from: Date | null;
  to: Date | null;
  /** Calendar days whose events the run wrote, wholly or in part. */
  days: number;
  /** Applications filed (pending or already decided). */
  applications: number;
  approvals: number;
  /** Applications declined or withdrawn. */
  declined: number;
  activations: number;
  closures: number;
  /** Completed days whose activity was added, and its rows. */
  activityDays: number;
  activityRows: number;
  /** Months whose monthly rows and income were brought up to date. */
  months: string[];
  /** Months whose residual statements and adjustments were written (when the month turned). */
  residualMonths: string[];
  residualRows: number;
  adjustmentRows: number;
}

interface Options {
  /** Called as the run goes: percent done (0–100) and what it is doing. */
  progress?: (percent: number, text: string) => void;
  /** Days per run, MAX_DAYS_PER_RUN unless given (tests). */
  maxDays?: number;
}

interface PlannedApproval {
  key: string;
  level: number;
  draw: ReturnType<typeof drawMerchant>;
}

interface PlannedApplication {
  key: string;
  level: number;
  application: ReturnType<typeof drawApplication>;
  decidedAt: Date;
}

/**
 * Catches the demo data up from demo_state.caught_up_to to `now` (at most `maxDays` days a run), in `db`,
 * which must be the caller's transaction: the run and its watermark commit together. Does nothing on a
 * database without the demo marker.
 */
export async function catchUpLiveDemo(db: Db, now: Date, options: Options = {}): Promise<LiveDemoReport> {
  const report: LiveDemoReport = {
    outcome: 'not_demo',
    from: null,
    to: null,
    days: 0,
    applications: 0,
    approvals: 0,
    declined: 0,
    activations: 0,
    closures: 0,
    activityDays: 0,
    activityRows: 0,
    months: [],
    residualMonths: [],
    residualRows: 0,
    adjustmentRows: 0,
  };
  if (!db.isTransaction) throw new Error('catchUpLiveDemo runs inside the caller’s transaction');
  // Locked: two runs at once (the start-up run and a scheduled one) would both write the same events.
  const state = await db.selectFrom('demo_state').selectAll().forUpdate().executeTakeFirst();
  if (!state || !(state.scale in SCALES)) return report;
  const from = new Date(state.caught_up_to);
  const origin = new Date(state.seeded_at);
  if (now.getTime() <= from.getTime()) return { ...report, outcome: 'up_to_date' };

  const say = options.progress ?? (() => {});
  const maxDays = options.maxDays ?? MAX_DAYS_PER_RUN;
  const fromDay = dayOf(from);
  const limit = new Date((fromDay + maxDays) * DAY);
  const to = now.getTime() > limit.getTime() ? limit : now;
  const toDay = dayOf(to);
  Object.assign(report, {
    outcome: to === now ? 'caught_up' : 'partly',
    from,
    to,
    days: toDay - fromDay + (to.getTime() === toDay * DAY ? 0 : 1),
  });
  const seed = state.seed;
  const scale = SCALES[state.scale as keyof typeof SCALES];

  if (new Date(to).getUTCFullYear() > from.getUTCFullYear()) {
    // The calendars the seed wrote reach the end of the year after it was made.
    await db
      .insertInto('holidays')
      .values(bankHolidays(from.getUTCFullYear() + 1, to.getUTCFullYear() + 1))
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
  }

  // Applications and approvals, day by day in the order they happened.
  const plan = new DayPlanner(seed, scale, dayOf(origin), await readDrawContext(db, scale.isos));
  const events = new Map<number, Array<() => Promise<void>>>();
  // An application filed before the run's first day (one approved after the seed's moment but filed before
  // it) is filed on that first day's turn.
  const on = (at: Date, work: () => Promise<void>) => {
    const day = Math.max(dayOf(at), fromDay);
    events.set(day, [...(events.get(day) ?? []), work]);
  };
  const exists = (submitted: Date, at: Date) => at > origin && submitted <= at;
  const newMerchantIds: number[] = [];

  for (let day = fromDay; day <= toDay + MAX_APPROVAL_DAYS; day++) {
    for (const a of plan.approvals(day)) {
      const submitted = a.draw.application.submitted_at;
      const approved = a.draw.application.approved_at;
      // Approvals before the seed's moment are the seed's own.
      if (approved <= origin) continue;
      if (exists(submitted, to) && !exists(submitted, from)) {
        on(submitted, async () => {
          await fileApplication(db, a.key, {
            ...a.draw.application,
            status: 'Pending',
            pending_level: a.level,
            approved_at: null,
          });
          report.applications++;
        });
      }
      if (approved > from && approved <= to) {
        on(approved, async () => {
          newMerchantIds.push(await approve(db, a));
          report.approvals++;
        });
      }
    }
  }
  for (let day = Math.max(dayOf(origin), fromDay - MAX_DECISION_DAYS); day <= toDay; day++) {
    for (const a of plan.applications(day)) {
      const submitted = a.application.submitted_at;
      // The seed's pending applications stand for those filed before its moment.
      if (submitted <= origin) continue;
      if (exists(submitted, to) && !exists(submitted, from)) {
        on(submitted, async () => {
          await fileApplication(db, a.key, { ...a.application, status: 'Pending', pending_level: a.level });
          report.applications++;
        });
      }
      if (a.decidedAt > from && a.decidedAt <= to) {
        on(a.decidedAt, async () => {
          await decide(db, a.key, { status: a.application.status, pending_level: null });
          report.declined++;
        });
      }
    }
  }
  for (let day = fromDay; day < fromDay + report.days; day++) {
    say(Math.round(((day - fromDay) / report.days) * 60), `Applications of ${isoDay(day)}`);
    for (const work of events.get(day) ?? []) await work();
  }

  // Activations and closures the generator planned, up to `to`.
  const activated = await sql<{ id: number }>`
    update merchants m set activated_on = dp.activates_on
    from demo_merchant_params dp
    where dp.merchant_id = m.id and m.activated_on is null and dp.activates_on <= ${isoDay(toDay)}::date
      and dp.activates_on <= dp.closes_on and (m.closed_on is null or m.closed_on >= dp.activates_on)
    returning m.id`.execute(db);
  report.activations = activated.rows.length;
  const closingAt = `((dp.closes_on::timestamp + (13 + 10 * ${uniform(noiseOf(seed, 'c', 'm.id'), 1)}) * interval '1 hour') at time zone 'UTC')`;
  const closed = await sql<{ id: number }>`
    with closing as (
      select m.id, dp.closes_on, ${sql.raw(closingAt)} as closed_at
      from merchants m join demo_merchant_params dp on dp.merchant_id = m.id
      where m.closed_on is null and dp.closes_on <= ${isoDay(toDay)}::date
    ), closed as (
      update merchants m set status = 'Closed', closed_on = c.closes_on
      from closing c where c.id = m.id and c.closed_at <= ${to}::timestamptz
      returning m.id, c.closed_at
    ), application as (
      update applications a set closed_at = c.closed_at from closed c
      where a.merchant_id = c.id and a.status = 'Approved'
    )
    select id from closed`.execute(db);
  report.closures = closed.rows.length;
  say(65, 'Activations and closures');

  // Activity of the days completed since the last run; the seed's stops at the day before its moment.
  const completed = Array.from({ length: Math.max(0, toDay - fromDay) }, (_, i) => isoDay(fromDay + i));
  if (completed.length > 0) {
    await insertDailyActivity(
      db,
      seed,
      `(select dp.merchant_id, m.partner_id, dp.ticket, dp.cb_rate, dp.refund_rate, dp.base, dp.trend,
               m.activated_on as active_from, coalesce(m.closed_on, date 'infinity') as active_to
        from demo_merchant_params dp join merchants m on m.id = dp.merchant_id)`,
      completed[0] as string,
      completed[completed.length - 1] as string,
    );
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from merchant_daily d join demo_merchant_params dp on dp.merchant_id = d.merchant_id
      where d.day between ${completed[0]}::date and ${completed[completed.length - 1]}::date`.execute(db);
    report.activityDays = completed.length;
    report.activityRows = rows[0]?.n ?? 0;
  }
  say(75, 'Activity');

  // Each merchant open in a month has its row, at zero until it has days, as the seed makes them.
  const months: string[] = [];
  for (let m = monthStart(from); m <= monthStart(to); m = addMonths(m, 1)) months.push(m);
  const opened = await sql<{ merchant_id: number }>`
    insert into merchant_monthly (merchant_id, partner_id, month, volume, transactions, chargeback_volume, chargebacks,
      refund_volume, refunds)
    select m.id, m.partner_id, mon, 0, 0, 0, 0, 0, 0
    from unnest(${months}::date[]) mon
    join merchants m on m.opened_on <= least((mon + interval '1 month')::date - 1, ${isoDay(toDay)}::date)
      and (m.closed_on is null or m.closed_on >= mon)
    join demo_merchant_params dp on dp.merchant_id = m.id
    on conflict (merchant_id, month) do nothing
    returning merchant_id`.execute(db);
  const openedIds = opened.rows.map((r) => r.merchant_id);
  const changedMerchants = [
    ...new Set([...newMerchantIds, ...activated.rows.map((r) => r.id), ...closed.rows.map((r) => r.id)]),
  ];
  const merchantsChange: SourceChange = { table: 'merchants', ids: changedMerchants };

  if (completed.length > 0 || openedIds.length > 0) {
    // Only the demo merchants' months are named: a month of an imported merchant without days is a record,
    // which a re-sum from days would set to zero.
    const withDays =
      completed.length === 0
        ? []
        : (
            await sql<{ id: number }>`
              select distinct d.merchant_id as id from merchant_daily d
              join demo_merchant_params dp on dp.merchant_id = d.merchant_id
              where d.day between ${completed[0]}::date and ${completed[completed.length - 1]}::date`.execute(
              db,
            )
          ).rows.map((r) => r.id);
    // Months re-summed from their days, then their income recomputed from the new sums: income is read
    // by the derived tables too, so each step is refreshed in turn.
    await refreshDerived(
      db,
      { table: 'merchant_daily', days: completed, merchantIds: withDays },
      { table: 'merchant_monthly', months, merchantIds: openedIds },
      merchantsChange,
    );
    const recomputed = [...new Set([...withDays, ...openedIds])];
    const where = `a.month = any(array[${months.map((m) => `'${m}'`).join(', ')}]::date[])
      and a.merchant_id = any(array[${recomputed.join(', ')}]::int[])`;
    await sql
      .raw(`delete from merchant_income i using merchant_monthly a, demo_merchant_params dp
      where i.merchant_id = a.merchant_id and i.month = a.month and dp.merchant_id = a.merchant_id and ${where}`)
      .execute(db);
    await generateIncome(db, { params: 'demo_merchant_params', where });
    await refreshDerived(db, { table: 'merchant_income', months, merchantIds: recomputed });
    report.months = months;
  } else {
    await refreshDerived(db, merchantsChange);
  }
  say(90, 'Monthly rows and income');

  // Residual statements and adjustments are monthly and imported in real life. The generator's rule is that
  // they reach two months before the current month (that month's income is complete), so when the month
  // turns the statements of the month that became two months old are written, as a monthly import would.
  const lastResidual = addMonths(monthStart(to), -2);
  const firstResidual = addMonths(monthStart(from), -1);
  if (firstResidual <= lastResidual) {
    const before = await residualCounts(db, firstResidual, lastResidual);
    await generateResiduals(db, seed, lastResidual, firstResidual);
    await generateAdjustments(db, seed, lastResidual, firstResidual);
    const after = await residualCounts(db, firstResidual, lastResidual);
    await refreshDerived(db, { table: 'residuals' }, { table: 'adjustments' });
    for (let m = firstResidual; m <= lastResidual; m = addMonths(m, 1)) report.residualMonths.push(m);
    report.residualRows = after.residuals - before.residuals;
    report.adjustmentRows = after.adjustments - before.adjustments;
  }
  if (to.getUTCFullYear() > from.getUTCFullYear()) await goalsAndBudgets(db, to);

  await db.updateTable('demo_state').set({ caught_up_to: to }).execute();
  say(100, report.outcome === 'partly' ? `Caught up to ${to.toISOString()}; more remains` : 'Caught up');
  return report;
}

const dayOf = (t: Date) => Math.floor(t.getTime() / DAY);

async function residualCounts(db: Db, first: string, last: string) {
  const { rows } = await sql<{ residuals: number; adjustments: number }>`
    select (select count(*)::int from residuals where month between ${first}::date and ${last}::date) as residuals,
           (select count(*)::int from adjustments where month between ${first}::date and ${last}::date) as adjustments`.execute(
    db,
  );
  return rows[0] ?? { residuals: 0, adjustments: 0 };
}

/** The seeded ISOs in the order the seed made them, with their groups: what the seed drew merchants from. */
async function readDrawContext(db: Db, isos: number): Promise<DrawContext> {
  const partners: SeededPartner[] = await db
    .selectFrom('partners')
    .select(['id', 'account_name', 'date_signed', 'rm', 'isc', 'in_house'])
    .orderBy('id')
    .limit(isos)
    .execute();
  const groups = await db
    .selectFrom('groups')
    .select([
      'partner_id',
      'group_sf_id',
      'group_name',
      'group_id',
      'association_number',
      'rev_share',
      'bank',
      'profile',
      'processor',
      'effective_date',
    ])
    .where(
      'partner_id',
      'in',
      partners.map((p) => p.id),
    )
    .orderBy('group_sf_id')
    .execute();
  const byPartner = new Map<number, GroupRow[]>();
  for (const g of groups)
    byPartner.set(g.partner_id, [...(byPartner.get(g.partner_id) ?? []), g as GroupRow]);
  return drawContext(partners, byPartner);
}

/**
 * The events of each day, drawn from a generator seeded by the demo seed and the day. The book keeps growing
 * as the seed's does: its approvals were spread over history with more in later years (density ∝ age^(1/3)),
 * so a day's expected approvals continue that curve, and the other applications keep the seed's proportion.
 */
class DayPlanner {
  private readonly perDay: number;
  private readonly cache = new Map<
    number,
    { approvals: PlannedApproval[]; applications: PlannedApplication[] }
  >();
  constructor(
    private readonly seed: number,
    private readonly scale: (typeof SCALES)[keyof typeof SCALES],
    seededDay: number,
    private readonly ctx: DrawContext,
  ) {
    // d/dt of (t / span)^(4/3), the seed's share of approvals by day t, per merchant: (4/3) t^(1/3) / span^(4/3).
    this.perDay = 4 / 3 / (seededDay - dayNumber(HISTORY_START)) ** (4 / 3);
  }

  approvals(day: number) {
    return this.of(day).approvals;
  }

  applications(day: number) {
    return this.of(day).applications;
  }

  private of(day: number) {
    const cached = this.cache.get(day);
    if (cached) return cached;
    const random = new Random(createHash('md5').update(`${this.seed}:live:${day}`).digest().readUInt32LE(0));
    const curve = this.perDay * (day - dayNumber(HISTORY_START)) ** (1 / 3);
    const approvalCount = Math.min(99, poisson(random, this.scale.merchants * curve));
    const applicationCount = poisson(random, (this.scale.applications - this.scale.merchants) * curve);
    const time = (n: number) => new Date(n * DAY + (13 + random.next() * 10) * 3_600_000);
    const approvals: PlannedApproval[] = [];
    for (let i = 0; i < approvalCount; i++) {
      const level = random.weighted([1, 2, 3], [50, 32, 18]);
      const draw = drawMerchant(random, this.ctx, {
        tag: `d${day}n${i}`,
        midSerial: `${day}`.padStart(5, '0') + `${i}`.padStart(2, '0'),
        todayN: day,
        hazardAsOf: Number.POSITIVE_INFINITY,
        approvedDay: () => day,
        stamp: time,
      });
      approvals.push({ key: `${isoDay(day)}:approval:${i}`, level, draw });
    }
    const applications: PlannedApplication[] = [];
    for (let i = 0; i < applicationCount; i++) {
      const level = random.weighted([1, 2, 3], [50, 32, 18]);
      const application = drawApplication(random, this.ctx, {
        pending: false,
        submittedDay: () => day,
        stamp: time,
      });
      const decidedAt = time(day + 1 + Math.floor(random.next() ** 2 * MAX_DECISION_DAYS));
      applications.push({ key: `${isoDay(day)}:application:${i}`, level, application, decidedAt });
    }
    const plan = { approvals, applications };
    this.cache.set(day, plan);
    return plan;
  }
}

/** Knuth's method: fine for the tens of events a day of the largest scale. */
function poisson(random: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let n = 0;
  for (let p = random.next(); p > limit; p *= random.next()) n++;
  return n;
}

async function fileApplication(
  db: Db,
  key: string,
  application: Insertable<ApplicationsTable>,
): Promise<void> {
  const { id } = await db
    .insertInto('applications')
    .values({ ...application, merchant_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('demo_applications').values({ key, application_id: id }).execute();
}

async function decide(
  db: Db,
  key: string,
  set: { status: string; pending_level: null; approved_at?: Date; merchant_id?: number },
): Promise<void> {
  const done = await db
    .updateTable('applications')
    .set(set)
    .where('id', '=', (eb) =>
      eb.selectFrom('demo_applications').select('application_id').where('key', '=', key),
    )
    .where('status', '=', 'Pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new Error(`The live demo's application ${key} is not pending`);
}

/** The merchant of an approval, its parameters, and its application decided. */
async function approve(db: Db, a: PlannedApproval): Promise<number> {
  const { id } = await db
    .insertInto('merchants')
    .values(a.draw.merchant)
    .returning('id')
    .executeTakeFirstOrThrow();
  await assignMerchantFacts(db, id);
  await enrollPciMerchant(db, id);
  const isoDate = (n: number | null) => (n === null ? null : isoDay(n));
  await db
    .insertInto('demo_merchant_params')
    .values({
      merchant_id: id,
      activates_on: isoDate(a.draw.activatesN),
      closes_on: isoDay(a.draw.closesN),
      ...a.draw.params,
    })
    .execute();
  await decide(db, a.key, {
    status: 'Approved',
    pending_level: null,
    approved_at: a.draw.application.approved_at,
    merchant_id: id,
  });
  return id;
}
