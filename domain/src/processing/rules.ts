import { isBusinessDay } from '../businessDays';
import { MONTH_NAMES } from '../months';

/**
 * The processing dashboard's rules (spec document 2 §2.3, §2.8, §9): volume labels, the trending (projected)
 * month volume, the budget percent, the year navigation and the seven report quarters. Days are 'YYYY-MM-DD'
 * and months 'YYYY-MM-01' strings in UTC, so the server, the browser and the report agree.
 */

/** Back navigation stops at this year (spec §9); so do the report quarters. */
export const PROCESSING_FIRST_YEAR = 2020;

const DAY_MS = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** Days from `from` to `to`, both included; 0 when `to` is before `from`. */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS) + 1);
}

export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The years the dashboard navigates: 2020 up to the current year, the current one live, earlier ones historic. */
export function processingYears(now: Date = new Date()): number[] {
  const out: number[] = [];
  for (let y = PROCESSING_FIRST_YEAR; y <= now.getUTCFullYear(); y++) out.push(y);
  return out;
}

export const isHistoricYear = (year: number, now: Date = new Date()) => year < now.getUTCFullYear();

/**
 * The `dt` a year's dashboard asks for: today for the current year (live), the year's last day for an earlier
 * one (historic).
 */
export function processingDt(year: number, now: Date = new Date()): { dt: string; historic: boolean } {
  return isHistoricYear(year, now)
    ? { dt: `${year}-12-31`, historic: true }
    : { dt: todayIso(now), historic: false };
}

const SCALES = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'k' },
] as const;

/**
 * A volume label: k for thousands, M for millions, B for billions (spec §9), three significant digits
 * (1.23M, 12.3M, 123M), trailing zeros dropped (1.5k, 2M). Under a thousand the whole amount is shown.
 * A value that rounds up to the next scale is shown in it (999,950 is 1M, not 1000k).
 */
export function formatVolume(value: number): string {
  if (!Number.isFinite(value)) return '–';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  for (const [i, { size, suffix }] of SCALES.entries()) {
    if (abs < size) continue;
    const scaled = abs / size;
    const text = trimZeros(scaled.toFixed(scaled < 10 ? 2 : scaled < 100 ? 1 : 0));
    if (Number(text) >= 1000 && i > 0) {
      const bigger = SCALES[i - 1] as (typeof SCALES)[number];
      return `${sign}${trimZeros((abs / bigger.size).toFixed(2))}${bigger.suffix}`;
    }
    return `${sign}${text}${suffix}`;
  }
  const whole = Math.round(abs);
  if (whole >= 1000) return `${sign}1k`;
  return whole === 0 ? '0' : `${sign}${whole}`;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * The month's budget period. Budgets are set per calendar month, so the period is the month from its first to
 * its last day; processing runs every day (cards are taken on weekends), so every calendar day counts.
 */
export function budgetPeriod(month: string): { start: string; end: string; days: number } {
  const d = toDate(month);
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
  return { start: month, end, days: daysBetween(month, end) };
}

/** Days of the budget period below which the month's own average is not trusted (spec §9: "the first 2 days"). */
export const TRENDING_MIN_DAYS = 3;

export type TrendingBasis = 'complete' | 'month' | 'previousMonth';

export interface Trending {
  /** The projected volume of the whole budget period. */
  volume: number;
  /** The average daily volume the projection used. */
  averageDaily: number;
  /** Days of the period with data (through `asOf`). */
  elapsedDays: number;
  periodDays: number;
  /**
   * complete: the period is over, the volume is the actual one. month: this month's average daily volume.
   * previousMonth: the first two days of a month, projected from last month's average daily volume.
   */
  basis: TrendingBasis;
}

/**
 * The trending (projected) month volume (spec §9): the month's average daily volume × the budget period's days.
 *
 * The first two days of a month (the spec says they are treated specially but not how): an average over one or
 * two days swings with the weekday and with settlement files that arrive a day late, so a Sunday-the-1st would
 * project a third of the real month. On those days PayDesk projects from the previous month's average daily
 * volume instead; from the third day on, the month's own average. When there is no previous month to go by
 * (no volume last month), the month's own average is used even on day one or two.
 *
 * `monthToDate` is the volume from `start` through `asOf`, the last day with data (the day before today on a
 * live dashboard, since today's files are not in; the period's end once it is over).
 */
export function trendingVolume(input: {
  monthToDate: number;
  start: string;
  end: string;
  asOf: string;
  previousMonthAverageDaily: number | null;
}): Trending {
  const periodDays = daysBetween(input.start, input.end);
  const asOf = input.asOf > input.end ? input.end : input.asOf;
  const elapsedDays = daysBetween(input.start, asOf);
  if (elapsedDays >= periodDays) {
    return {
      volume: input.monthToDate,
      averageDaily: periodDays > 0 ? input.monthToDate / periodDays : 0,
      elapsedDays: periodDays,
      periodDays,
      basis: 'complete',
    };
  }
  const previous = input.previousMonthAverageDaily;
  if (elapsedDays < TRENDING_MIN_DAYS && previous !== null && previous > 0) {
    return {
      volume: previous * periodDays,
      averageDaily: previous,
      elapsedDays,
      periodDays,
      basis: 'previousMonth',
    };
  }
  const averageDaily = elapsedDays > 0 ? input.monthToDate / elapsedDays : 0;
  return { volume: averageDaily * periodDays, averageDaily, elapsedDays, periodDays, basis: 'month' };
}

/** The trending volume as a percent of the budget, one decimal; null when there is no budget to compare with. */
export function budgetPercent(trending: number, budget: number | null): number | null {
  if (budget === null || !(budget > 0)) return null;
  return Math.round((trending / budget) * 1000) / 10;
}

export type Quarter = 1 | 2 | 3 | 4;

export interface ReportQuarter {
  yr: number;
  qr: Quarter;
  /** The quarter's first month. */
  start: string;
  /** The last month the report covers: the quarter's last month, or last month for the quarter in progress. */
  through: string;
  /** False for the quarter-to-month report of the quarter in progress. */
  complete: boolean;
  /** What the button reads: "2026 Q4 (to October)" or "2026 Q3". */
  label: string;
}

const monthOf = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;

/**
 * A report quarter as seen on `now`: from the quarter's first month through its last month, cut at last month
 * (a report covers whole months only). Null when the quarter has no whole month yet (it begins this month or
 * later) or lies before 2020.
 */
export function reportQuarter(yr: number, qr: Quarter, now: Date = new Date()): ReportQuarter | null {
  if (yr < PROCESSING_FIRST_YEAR) return null;
  const lastMonthDate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const lastMonth = monthOf(lastMonthDate.getUTCFullYear(), lastMonthDate.getUTCMonth() + 1);
  const start = monthOf(yr, (qr - 1) * 3 + 1);
  if (start > lastMonth) return null;
  const quarterEnd = monthOf(yr, qr * 3);
  const complete = quarterEnd <= lastMonth;
  const through = complete ? quarterEnd : lastMonth;
  const throughName = MONTH_NAMES[Number(through.slice(5, 7)) - 1];
  return {
    yr,
    qr,
    start,
    through,
    complete,
    label: complete ? `${yr} Q${qr}` : `${yr} Q${qr} (to ${throughName})`,
  };
}

/** Number of report buttons (spec §2.3): the quarter-to-month report for last month and six prior quarters. */
export const REPORT_QUARTER_COUNT = 7;

/**
 * The seven report buttons, newest first: the quarter holding last month (quarter-to-month through last month,
 * complete when last month closes its quarter) and the six quarters before it. Quarters before 2020 are left
 * out, so early in the floor year fewer than seven are offered.
 */
export function reportQuarters(now: Date = new Date()): ReportQuarter[] {
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  let yr = lastMonth.getUTCFullYear();
  let qr = (Math.floor(lastMonth.getUTCMonth() / 3) + 1) as Quarter;
  const out: ReportQuarter[] = [];
  for (let i = 0; i < REPORT_QUARTER_COUNT; i++) {
    const q = reportQuarter(yr, qr, now);
    if (q) out.push(q);
    if (qr === 1) {
      yr -= 1;
      qr = 4;
    } else qr = (qr - 1) as Quarter;
  }
  return out;
}

/** The months a report quarter covers, oldest first. */
export function quarterMonths(q: Pick<ReportQuarter, 'start' | 'through'>): string[] {
  const out: string[] = [];
  for (let m = q.start; m <= q.through; ) {
    out.push(m);
    const d = toDate(m);
    m = monthOf(
      d.getUTCMonth() === 11 ? d.getUTCFullYear() + 1 : d.getUTCFullYear(),
      d.getUTCMonth() === 11 ? 1 : d.getUTCMonth() + 2,
    );
  }
  return out;
}

export const SUBSCRIPTION_FREQUENCIES = ['monthly', 'quarterly'] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];

/** The first business day (no weekend, no bank holiday) of the month holding `day`. */
export function firstBusinessDay(day: string, holidays: ReadonlySet<string>): string {
  let t = toDate(`${day.slice(0, 7)}-01`).getTime();
  while (!isBusinessDay(new Date(t).toISOString().slice(0, 10), holidays)) t += DAY_MS;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Whether a subscription is due on `today`: on the month's first business day, every month for a monthly one,
 * in January, April, July and October (a quarter has just closed) for a quarterly one. Either way the report sent
 * is the first button's: the quarter holding last month, through last month.
 */
export function subscriptionDue(
  frequency: SubscriptionFrequency,
  today: string,
  holidays: ReadonlySet<string>,
): boolean {
  if (today !== firstBusinessDay(today, holidays)) return false;
  if (frequency === 'monthly') return true;
  return (Number(today.slice(5, 7)) - 1) % 3 === 0;
}
