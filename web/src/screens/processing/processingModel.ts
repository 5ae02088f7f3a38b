import type { ActivationRow, ProcessingInfo } from '@paydesk/domain';
import { budgetPeriod, formatVolume, monthLabel } from '@paydesk/domain';
import type { ChartValue } from '../../components/charts';

const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The spec's banks first, in its order (document 2 §1), then any other bank the data names, by name. */
const BANK_ORDER = ['CBCAL', 'Esquire', 'Chesapeake', 'PPS'];
/** The spec's profiles (document 2 §1) in its order. */
const PROFILE_ORDER = ['Traditional', 'PayLo', 'High Risk', 'Unassigned'];

function ordered(names: Iterable<string>, order: readonly string[]): string[] {
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i < 0 ? order.length : i;
  };
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Banks in the order the charts stack them (the spec's first), so the budget grid reads the same way. */
export const orderedBanks = (banks: Iterable<string>) => ordered(banks, BANK_ORDER);

/** The months of a year as 'YYYY-MM-01', January first. */
export function yearMonths(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}-01`);
}

export const shortMonth = (month: string) => MONTH_SHORT[Number(month.slice(5, 7)) - 1] ?? month;

/** Dollars on an axis or a headline: '$1.23M', '$950'. */
export const volumeLabel = (value: number) =>
  value < 0 ? `-$${formatVolume(-value)}` : `$${formatVolume(value)}`;

const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
/** The exact figure behind an abbreviated label, for tooltips: '$1,234,568'. */
export const dollars = (value: number) => WHOLE_DOLLARS.format(value);

export interface NamedSeries {
  name: string;
  values: ChartValue[];
}

/**
 * One series per name over the months of the year, from rows keyed by name and month. Months after `last`
 * (the dashboard month) have not begun and are left empty (null), not drawn as zero; a begun month without a
 * row for a name is zero.
 */
export function seriesByMonth<R extends { mth: string }>(
  rows: readonly R[],
  months: readonly string[],
  last: string,
  nameOf: (row: R) => string,
  amountOf: (row: R) => number,
  order: readonly string[],
): NamedSeries[] {
  const sums = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const name = nameOf(row);
    const byMonth = sums.get(name) ?? new Map<string, number>();
    byMonth.set(row.mth, (byMonth.get(row.mth) ?? 0) + amountOf(row));
    sums.set(name, byMonth);
  }
  return ordered(sums.keys(), order).map((name) => ({
    name,
    values: months.map((m) => (m > last ? null : (sums.get(name)?.get(m) ?? 0))),
  }));
}

export const bankSeries = (info: ProcessingInfo, months: readonly string[]) =>
  seriesByMonth(
    info.monthly,
    months,
    info.headline.month,
    (r) => r.bank,
    (r) => r.txamt,
    BANK_ORDER,
  );

export const profileSeries = (info: ProcessingInfo, months: readonly string[]) =>
  seriesByMonth(
    info.byProfile,
    months,
    info.headline.month,
    (r) => r.processor,
    (r) => r.txamt,
    PROFILE_ORDER,
  );

/**
 * The budget of every bank together per month; null for a month without any budget row, so the budget line
 * shows a gap there rather than a budget of zero.
 */
export function budgetByMonth(info: ProcessingInfo, months: readonly string[]): ChartValue[] {
  const sums = new Map<string, number>();
  for (const row of info.yearlyBudget) sums.set(row.mth, (sums.get(row.mth) ?? 0) + row.budget);
  return months.map((m) => sums.get(m) ?? null);
}

/** The average daily volume per month (list 4); months not begun are empty. */
export function averageDaily(info: ProcessingInfo, months: readonly string[]): ChartValue[] {
  const byMonth = new Map(info.averages.map((r) => [r.mth, r.avgamt]));
  return months.map((m) => (m > info.headline.month ? null : (byMonth.get(m) ?? 0)));
}

/** Activations per month of the year; months not begun are empty. */
export function activationsByMonth(
  rows: readonly ActivationRow[],
  months: readonly string[],
  last: string,
): ChartValue[] {
  const byMonth = new Map<string, number>();
  for (const row of rows) byMonth.set(row.mth, (byMonth.get(row.mth) ?? 0) + row.cnt);
  return months.map((m) => (m > last ? null : (byMonth.get(m) ?? 0)));
}

export interface DailySeries {
  /** Day of the month, '1' to '31'. */
  categories: string[];
  volume: ChartValue[];
  budget: ChartValue[];
  benchmark: ChartValue[];
  benchmarkSameMerchants: ChartValue[];
}

/**
 * Every day of the dashboard month, so a month in progress is seen against the whole of it. The server lists
 * days through the last one with figures (`asOf`); later days have no volume and no benchmark yet (left empty,
 * so the lines stop there), while the budget line runs on to the month's end at the same amount a day: the
 * month's budget spread evenly over its days, as the listed days carry it.
 */
export function dailySeries(info: ProcessingInfo): DailySeries {
  const byDay = new Map(info.daily.map((r) => [r.day, r]));
  const { days } = budgetPeriod(info.headline.month);
  const monthBudget = info.monthBudget[0]?.budget ?? 0;
  const spread = info.daily[0]?.budgetamt ?? Math.round((monthBudget / days) * 100) / 100;
  const asOf = info.headline.asOf;
  const prefix = info.headline.month.slice(0, 8);
  const out: DailySeries = {
    categories: [],
    volume: [],
    budget: [],
    benchmark: [],
    benchmarkSameMerchants: [],
  };
  for (let d = 1; d <= days; d++) {
    const day = `${prefix}${String(d).padStart(2, '0')}`;
    const row = byDay.get(day);
    out.categories.push(String(d));
    out.volume.push(row && asOf !== null && day <= asOf ? row.txamt : null);
    // No budget for the month (or none shown, as to partner staff) draws no budget line rather than one at zero.
    out.budget.push(monthBudget > 0 ? (row ? row.budgetamt : spread) : null);
    out.benchmark.push(row ? row.benchamt : null);
    out.benchmarkSameMerchants.push(row ? row.benchamtbymerch : null);
  }
  return out;
}

/**
 * Why the daily chart is empty: the month has no day-by-day figures. Either none have arrived yet, or the month
 * lies before the days PayDesk keeps one by one (older months are kept as month totals only).
 */
export function dailyEmptyText(info: ProcessingInfo): string {
  const month = monthLabel(info.headline.month);
  if (info.headline.monthToDate !== 0)
    return `Day-by-day figures are not kept for ${month}, only its month total (${volumeLabel(info.headline.monthToDate)}), shown in the monthly charts.`;
  return `No figures for ${month} yet.`;
}

/** True when a list of series has nothing to draw: no rows, or only zeros and empty months. */
export const nothingToDraw = (values: readonly ChartValue[]) => values.every((v) => v === null || v === 0);

/** How the trending figure was reached, in words, for the headline. */
export function trendingNote(h: ProcessingInfo['headline']): string {
  switch (h.basis) {
    case 'complete':
      return `The month is over: its volume ÷ ${h.periodDays} days, against the budget as it ended.`;
    case 'previousMonth':
      return `Day ${h.elapsedDays} of ${h.periodDays}: too early to go by this month, so last month’s average daily volume (${volumeLabel(h.averageDaily)}) × ${h.periodDays} days.`;
    case 'month':
      return `Average daily volume ${volumeLabel(h.averageDaily)} over ${h.elapsedDays} of ${h.periodDays} days × ${h.periodDays} days.`;
  }
}

/** The budget percent's colour, as the Sales goal's: on budget teal, within 20% of it yellow, further red. */
export function budgetColor(percent: number | null): string {
  if (percent === null) return 'gray';
  if (percent >= 100) return 'teal';
  if (percent >= 80) return 'yellow';
  return 'red';
}

/** 'Nov 21' from '2026-11-21'. */
export const dayLabel = (day: string) => `${shortMonth(day)} ${Number(day.slice(8, 10))}`;
