import { addMonths, monthStart } from '../months';

/**
 * The Business Intelligence rules (spec document 2 §2.10, §9; document 3 §2.1, §4, §9), shared by the server,
 * which computes the figures, and the screens, which draw them.
 */

/** Number shortening (spec 3 §9): K from a thousand, M from a million, B from a billion, one decimal; else two. */
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(1)}K`;
  return value.toFixed(2);
}

export type ChartView = 'daily' | 'monthly';

/** The executive line chart (spec 3 §4): by day when it has more than 13 points, else by month. */
export const chartView = (points: number): ChartView => (points > 13 ? 'daily' : 'monthly');

/** The projection starts on this day of the month (spec 3 §9). */
export const PROJECTION_FIRST_DAY = 3;

/**
 * The projected Trend of the current month (spec 3 §4): the month so far scaled to the whole month from the
 * days elapsed minus 2 (the latest two days' figures are not in yet). Null before the 3rd: one day or none
 * would make a wild projection.
 */
export function projectMonth(value: number, today: Date): number | null {
  const day = today.getUTCDate();
  if (day < PROJECTION_FIRST_DAY) return null;
  const days = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).getUTCDate();
  return (value / (day - 2)) * days;
}

/** The executive year dropdown starts here (spec 3 §9: analytics years start 2017). */
export const EXEC_FIRST_YEAR = 2017;

/** The deal age buckets (spec 3 §9), by whole months since approval (or, for a closed deal, its lifetime). */
export const AGE_BUCKETS = ['0–6 m', '6–12 m', '1–2 y', '2–3 y', '> 3 y'] as const;
const AGE_BUCKET_EDGES = [6, 12, 24, 36] as const;

/** The bucket (an index into AGE_BUCKETS) of a deal this many whole months old: 6 months is in 6–12 m. */
export function dealAgeBucket(months: number): number {
  const i = AGE_BUCKET_EDGES.findIndex((edge) => months < edge);
  return i === -1 ? AGE_BUCKET_EDGES.length : i;
}

/** Whole calendar months from one day to a later one (YYYY-MM-DD), as PostgreSQL's age() counts them. */
export function wholeMonths(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
}

export type ExecPeriod = 'last12Months' | 'last30Days';

/** The executive filters (spec 3 §2.1): a preset window, or a year and a month; and an MCC. */
export interface ExecFilterView {
  /** A preset window, or null while a year is chosen. */
  period: ExecPeriod | null;
  year: number | null;
  /** 0 for All, else 1–12. */
  month: number;
  /** 'All' or an MCC code. */
  mcc: string;
}

export type ExecFilterChange =
  | { kind: 'period'; period: ExecPeriod }
  | { kind: 'year'; year: number }
  | { kind: 'month'; month: number }
  | { kind: 'mcc'; mcc: string }
  | { kind: 'iso' };

export const INITIAL_EXEC_FILTERS: ExecFilterView = {
  period: 'last12Months',
  year: null,
  month: 0,
  mcc: 'All',
};

/**
 * The reset rules (spec 3 §4): a preset resets year, month and MCC; a year sets the month to All; the month
 * cannot be chosen before a year; another ISO resets the MCC (its MCCs differ) and keeps the period.
 */
export function nextExecFilters(f: ExecFilterView, c: ExecFilterChange): ExecFilterView {
  switch (c.kind) {
    case 'period':
      return { period: c.period, year: null, month: 0, mcc: 'All' };
    case 'year':
      return { ...f, period: null, year: c.year, month: 0 };
    case 'month':
      return f.year === null ? f : { ...f, month: c.month };
    case 'mcc':
      return { ...f, mcc: c.mcc };
    case 'iso':
      return { ...f, mcc: 'All' };
  }
}

/**
 * Daily activity (merchant_daily, and the rollups made from it) is kept for this many months: the current month
 * and the twelve before it (docs/data.md). Older months have monthly figures only.
 */
export const DAILY_MONTHS_KEPT = 13;

/** The first day daily figures are kept from on `today` (YYYY-MM-DD): the 1st, twelve months before its month. */
export const firstDailyDay = (today: Date): string => addMonths(monthStart(today), 1 - DAILY_MONTHS_KEPT);

/** Whether a window from `date` can be shown day by day on `today`: its first day's figures are still kept. */
export const dailyKept = (date: string, today: Date): boolean => date >= firstDailyDay(today);

/** What the executive calls are asked for (`monthTotal`: a chosen month asked as its one monthly total). */
export interface ExecWindow {
  date: string;
  end: string;
  monthly: boolean;
  /** A chosen month older than the daily figures: its days are gone, so it is asked, and shown, as one month. */
  monthTotal: boolean;
}

/**
 * What the executive calls are asked for a filter: the first day, the last day and whether by month. A preset
 * runs to today; a year is its twelve months, a month its days (never past today), or, when its days are no
 * longer kept, its monthly total.
 */
export function execWindow(f: ExecFilterView, today: Date): ExecWindow {
  const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const now = day(y, m, today.getUTCDate());
  const capped = (end: string) => (end < now ? end : now);
  const ask = (date: string, end: string, monthly: boolean, monthTotal = false) => ({
    date,
    end,
    monthly,
    monthTotal,
  });
  if (f.period === 'last30Days') return ask(day(y, m, today.getUTCDate() - 30), now, false);
  if (f.period === 'last12Months' || f.year === null) return ask(day(y, m - 12, 1), now, true);
  if (f.month === 0) return ask(day(f.year, 0, 1), capped(day(f.year, 11, 31)), true);
  const first = day(f.year, f.month - 1, 1);
  const last = capped(day(f.year, f.month, 0));
  return dailyKept(first, today) ? ask(first, last, false) : ask(first, last, true, true);
}

/** A map colour band (spec 2 §9): counts from `min` up to, not including, `below` (null: no upper bound). */
export interface MapBand {
  min: number;
  below: number | null;
  color: string;
  label: string;
}

/** The seven bands of merchants per state (spec 2 §9), light to dark. */
export const MAP_BANDS: readonly MapBand[] = [
  { min: 0, below: 10, color: '#e7f5ff', label: 'under 10' },
  { min: 10, below: 25, color: '#d0ebff', label: '10 – 24' },
  { min: 25, below: 50, color: '#a5d8ff', label: '25 – 49' },
  { min: 50, below: 100, color: '#74c0fc', label: '50 – 99' },
  { min: 100, below: 500, color: '#4dabf7', label: '100 – 499' },
  { min: 500, below: 1000, color: '#1c7ed6', label: '500 – 999' },
  { min: 1000, below: null, color: '#1864ab', label: '1,000 or more' },
];

/** The band a state's count falls in. */
export function mapBand(count: number): MapBand {
  return MAP_BANDS.find((b) => b.below === null || count < b.below) as MapBand;
}

/** A share badge's figure (spec 3 §2.1): the percent of the ISO's approved deals, 0 when it has none. */
export const sharePercent = (count: number, approved: number): number =>
  approved === 0 ? 0 : (count / approved) * 100;

/** The MCC list shows this many entries before Show more (spec 3 §9). */
export const MCC_LIST_FIRST = 6;

/** An MCC label longer than this is cut (spec 3 §9); the full text is in its tooltip. */
export const MCC_LABEL_MAX = 35;

/** "5812 Eating Places, Restaurants", cut to 35 characters with an ellipsis. */
export function mccLabel(code: string, description: string): { text: string; cut: boolean } {
  const full = `${code} ${description}`.trim();
  return full.length > MCC_LABEL_MAX
    ? { text: `${full.slice(0, MCC_LABEL_MAX - 1).trimEnd()}…`, cut: true }
    : { text: full, cut: false };
}

/** Stats table page sizes (spec 2 §9), the first the default. */
export const STATS_PAGE_SIZES = [15, 50, 1000] as const;

/** The ISO analytics stats months start here (spec 2 §9). */
export const STATS_FIRST_MONTH = '2016-05-01';

/** At most this many group IDs in one executive call; the largest ISO has a handful. */
export const MAX_GROUP_IDS = 100;
