import {
  type ActivationRow,
  addMonths,
  BANKS,
  type BudgetRow,
  budgetPercent,
  budgetPeriod,
  type ProcessingInfo,
  type ProcessingInfoBody,
  todayIso,
  trendingVolume,
} from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import { badRequest } from '../../platform/errors';

/**
 * The processing dashboard's figures (spec document 2 §2.8, §3). Volume is read where the Financial dashboard
 * reads it, so the two agree to the cent: staff from the monthly rollup (activity_rollup), partner staff from
 * their ISO's merchant-months (row-level security scopes them; the rollup's only rows they may read are their
 * ISO's totals). Days come from processing_daily, the per-ISO daily sums of merchant_daily.
 */

const DAY_MS = 86_400_000;
const shiftDay = (day: string, days: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);
const cents = (n: number) => Math.round(n * 100) / 100;
/** The benchmark day: the same weekday a year earlier. */
const BENCH_DAYS_BACK = 364;

export interface Window {
  year: number;
  /** The dashboard month, YYYY-MM-01. */
  month: string;
  /** The last day the figures may run to. */
  end: string;
}

/** What a request asks for: historic is the whole year, live is dt's month through dt; never past today. */
export function windowOf(input: ProcessingInfoBody, today = todayIso()): Window {
  const year = Number(input.dt.slice(0, 4));
  let end = input.historic ? `${year}-12-31` : input.dt;
  if (end > today) end = today;
  if (end < `${year}-01-01`) end = `${year}-01-01`;
  return { year, month: `${end.slice(0, 7)}-01`, end };
}

interface MonthFigure {
  month: string;
  key: string;
  volume: string;
  transactions: string;
  merchants: number;
}

/** Volume, transactions and merchants per month and key ('' total, a bank or a profile) from `from` to `to`. */
async function monthFigures(
  db: Db,
  by: 'all' | 'bank' | 'profile',
  from: string,
  to: string,
  isoId: number | null,
): Promise<MonthFigure[]> {
  if (isoId === null) {
    const { rows } = await sql<MonthFigure>`
      select month::text as month, value as key, volume::text as volume, transactions::text as transactions, merchants
      from activity_rollup where dimension = ${by} and month >= ${from}::date and month <= ${to}::date
      order by month, value`.execute(db);
    return rows;
  }
  if (by === 'all') {
    const { rows } = await sql<MonthFigure>`
      select month::text as month, '' as key, volume::text as volume, transactions::text as transactions, merchants
      from activity_rollup where dimension = 'partner' and value = ${String(isoId)}
        and month >= ${from}::date and month <= ${to}::date
      order by month`.execute(db);
    return rows;
  }
  const key = sql.raw(by === 'bank' ? 'm.sponsor_bank' : 'm.profile');
  const { rows } = await sql<MonthFigure>`
    select a.month::text as month, ${key} as key, sum(a.volume)::text as volume, sum(a.transactions)::text as transactions,
           count(*)::int as merchants
    from merchant_monthly a join merchants m on m.id = a.merchant_id
    where a.month >= ${from}::date and a.month <= ${to}::date
    group by a.month, ${key} order by a.month, ${key}`.execute(db);
  return rows;
}

/** Days of processing_daily from `from` to `to`: the totals for staff, the ISO's own for partner staff. */
async function dailyVolumes(
  db: Db,
  from: string,
  to: string,
  isoId: number | null,
): Promise<Map<string, number>> {
  const { rows } = await sql<{ day: string; volume: string }>`
    select day::text as day, volume::text as volume from processing_daily
    where partner_id = ${isoId ?? 0} and day >= ${from}::date and day <= ${to}::date`.execute(db);
  return new Map(rows.map((r) => [r.day, Number(r.volume)]));
}

/** The budgets of the months from `from` to `to`, per bank. Partner staff have none: budgets are the processor's. */
async function budgets(db: Db, from: string, to: string, isoId: number | null): Promise<BudgetRow[]> {
  if (isoId !== null) return [];
  const { rows } = await sql<{ bank: string; mth: string; budget: string }>`
    select bank, month::text as mth, budget::text as budget from processing_budgets
    where month >= ${from}::date and month <= ${to}::date order by month, bank`.execute(db);
  return rows.map((r) => ({ bank: r.bank, mth: r.mth, budget: Number(r.budget) }));
}

/** The seven lists and the headline (spec §3 processing data). */
export async function processingInfo(
  db: Db,
  input: ProcessingInfoBody,
  isoId: number | null,
  today = todayIso(),
): Promise<ProcessingInfo> {
  const w = windowOf(input, today);
  const yearStart = `${w.year}-01-01`;
  const period = budgetPeriod(w.month);
  const previousMonth = addMonths(w.month, -1);
  const benchFirst = shiftDay(period.start, -BENCH_DAYS_BACK);

  const totals = await monthFigures(db, 'all', `${benchFirst.slice(0, 7)}-01`, w.month, isoId);
  const total = new Map(totals.map((t) => [t.month, t]));
  const byBank = await monthFigures(db, 'bank', yearStart, w.month, isoId);
  const byProfile = await monthFigures(db, 'profile', yearStart, w.month, isoId);
  const days = await dailyVolumes(db, period.start, w.end > period.end ? period.end : w.end, isoId);
  const benchDays = await dailyVolumes(db, benchFirst, shiftDay(period.end, -BENCH_DAYS_BACK), isoId);
  const yearBudgets = await budgets(db, yearStart, `${w.year}-12-01`, isoId);

  const asOf = days.size > 0 ? ([...days.keys()].sort().at(-1) ?? null) : null;
  const monthBudget = cents(yearBudgets.filter((b) => b.mth === w.month).reduce((s, b) => s + b.budget, 0));
  const dailyBudget = cents(monthBudget / period.days);
  const thisMonth = total.get(w.month);
  // A month cut short by dt counts its days through dt; a whole month (or the month in progress, whose rollup
  // is the sum of its days so far) is the rollup's figure, the one the Financial dashboard shows.
  const cutShort = w.end < period.end && w.end < today && days.size > 0;
  const monthToDate = cutShort
    ? [...days.values()].reduce((s, v) => s + v, 0)
    : Number(thisMonth?.volume ?? 0);
  const merchantsNow = thisMonth?.merchants ?? 0;

  /** A benchmark day's volume; a day older than the daily window counts its month's average day. */
  const benchVolume = (day: string) => {
    const known = benchDays.get(day);
    if (known !== undefined) return known;
    const m = total.get(`${day.slice(0, 7)}-01`);
    return m ? Number(m.volume) / budgetPeriod(m.month).days : 0;
  };
  const daily: ProcessingInfo['daily'] = [];
  for (let day = period.start; asOf !== null && day <= asOf; day = shiftDay(day, 1)) {
    const benchDay = shiftDay(day, -BENCH_DAYS_BACK);
    const bench = benchVolume(benchDay);
    const benchMonth = total.get(`${benchDay.slice(0, 7)}-01`);
    const merchantsThen = benchMonth?.merchants ?? 0;
    daily.push({
      day,
      txamt: cents(days.get(day) ?? 0),
      benchamt: cents(bench),
      budgetamt: dailyBudget,
      // Last year's volume per processing merchant, times this month's processing merchants.
      benchamtbymerch: merchantsThen > 0 ? cents((bench / merchantsThen) * merchantsNow) : 0,
    });
  }

  const elapsedOf = (month: string) => {
    const p = budgetPeriod(month);
    // A month whose last day has passed counts all its days, whether or not its days are still kept one by one.
    if (month !== w.month || w.end >= p.end) return p.days;
    return asOf === null
      ? 0
      : Math.min(p.days, Math.round((Date.parse(asOf) - Date.parse(p.start)) / DAY_MS) + 1);
  };
  const averages = totals
    .filter((t) => t.month >= yearStart)
    .map((t) => {
      const d = elapsedOf(t.month);
      return {
        mth: t.month,
        days: d,
        txamt: cents(Number(t.volume)),
        avgamt: d > 0 ? cents(Number(t.volume) / d) : 0,
      };
    });

  const previous = total.get(previousMonth);
  const trending = trendingVolume({
    monthToDate,
    start: period.start,
    end: period.end,
    // A month whose last day has passed is over, daily figures or not (days older than the daily window are kept
    // per month only); the current one runs through its last day with data.
    asOf: w.end >= period.end ? period.end : (asOf ?? shiftDay(period.start, -1)),
    previousMonthAverageDaily: previous ? Number(previous.volume) / budgetPeriod(previousMonth).days : null,
  });

  const banks = [...new Set(byBank.map((b) => b.key))].sort();
  const bankPeriods = banks.flatMap((bank) => {
    const months = byBank.filter((b) => b.key === bank && Number(b.volume) !== 0).map((b) => b.month);
    const first = months[0];
    const last = months.at(-1);
    if (!first || !last) return [];
    const lastEnd = budgetPeriod(last).end;
    return [
      { bank, start: first, end: last === w.month && asOf !== null && asOf < lastEnd ? asOf : lastEnd },
    ];
  });

  return {
    monthly: byBank.map((b) => ({
      bank: b.key,
      mth: b.month,
      txamt: cents(Number(b.volume)),
      txct: Number(b.transactions),
    })),
    byProfile: byProfile.map((p) => ({ processor: p.key, mth: p.month, txamt: cents(Number(p.volume)) })),
    daily,
    averages,
    monthBudget: isoId === null ? [{ start: period.start, end: period.end, budget: monthBudget }] : [],
    bankPeriods,
    yearlyBudget: yearBudgets,
    headline: {
      month: w.month,
      asOf: trending.basis === 'complete' ? period.end : asOf,
      monthToDate: cents(monthToDate),
      trending: cents(trending.volume),
      averageDaily: cents(trending.averageDaily),
      elapsedDays: trending.elapsedDays,
      periodDays: trending.periodDays,
      basis: trending.basis,
      budget: monthBudget,
      budgetPercent: budgetPercent(trending.volume, isoId === null ? monthBudget : null),
    },
  };
}

/** Merchants activated per month of dt's year, through dt's month (zero months included). */
export async function activations(db: Db, dt: string): Promise<ActivationRow[]> {
  const from = `${dt.slice(0, 4)}-01-01`;
  const through = `${dt.slice(0, 7)}-01`;
  const { rows } = await sql<{ mth: string; cnt: number }>`
    select g.m::date::text as mth, coalesce(c.cnt, 0)::int as cnt
    from generate_series(${from}::date, ${through}::date, interval '1 month') g(m)
    left join (
      -- Counted per day first, in the index's order, then per month: date_trunc takes a timestamp, and casting
      -- each of 50,000 activations (the xl scale's year) to one took two thirds of the call (docs/bench.md).
      select date_trunc('month', d.day)::date as m, sum(d.cnt) as cnt from (
        select activated_on as day, count(*) as cnt from merchants
        where activated_on >= ${from}::date and activated_on < (${through}::date + interval '1 month')
        group by 1
      ) d
      group by 1
    ) c on c.m = g.m::date
    order by 1`.execute(db);
  return rows;
}

/** A year's budgets and the banks they are set for. */
export async function budgetsOf(db: Db, year: number) {
  const rows = await budgets(db, `${year}-01-01`, `${year}-12-01`, null);
  const banks = [...new Set([...BANKS, ...rows.map((r) => r.bank)])].sort();
  return { year, banks, rows };
}

/** Sets a bank's budget for a month, audited with the old and new amount. */
export async function saveBudget(
  db: Db,
  input: { bank: string; mth: string; budget: number },
  actor: { id: number; email: string },
  ip: string,
): Promise<BudgetRow> {
  if (!(BANKS as readonly string[]).includes(input.bank)) {
    throw badRequest(`Unknown bank: ${input.bank}. Banks: ${BANKS.join(', ')}`);
  }
  const before = await db
    .selectFrom('processing_budgets')
    .select('budget')
    .where('month', '=', input.mth)
    .where('bank', '=', input.bank)
    .executeTakeFirst();
  const budget = input.budget.toFixed(2);
  await db
    .insertInto('processing_budgets')
    .values({ month: input.mth, bank: input.bank, budget, updated_by: actor.email, updated_at: new Date() })
    .onConflict((oc) =>
      oc.columns(['month', 'bank']).doUpdateSet({ budget, updated_by: actor.email, updated_at: new Date() }),
    )
    .execute();
  await audit(db, {
    actor,
    action: 'processing.budget',
    subject: `${input.bank} ${input.mth.slice(0, 7)}`,
    ip,
    details: { bank: input.bank, month: input.mth, old: before?.budget ?? null, new: budget },
  });
  return { bank: input.bank, mth: input.mth, budget: Number(budget) };
}
