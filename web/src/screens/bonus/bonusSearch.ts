/**
 * The Bonuses tab's selectors (spec document 3 §2.3, §4, §5, §9): a period, then year, month and, for Weekly
 * only, a day. The date sent is built from them, YYYY-MM-DD; Search waits until every selector the period
 * needs is chosen. Only windows from the period's anchor up to today are offered.
 */
import { type BonusPeriod, windowOf } from '@paydesk/domain';

/**
 * What each period's date stands for (docs/bonus.md): a weekly window runs Thursday to the following Wednesday,
 * the first from 2022-05-26, and is named by its Thursday; a monthly window runs the 21st to the 20th and is
 * named by the 20th that ends it, the first ending 2022-07-20; the monthly extra bonuses are per calendar month,
 * the first June 2023, and are named by its 1st.
 */
export const FIRST_DATES: Record<BonusPeriod, string> = {
  W: '2022-05-26',
  M: '2022-07-20',
  ME: '2023-06-01',
};

/** The day of the month a monthly period's date falls on. */
const MONTHLY_DAY: Record<Exclude<BonusPeriod, 'W'>, number> = { M: 20, ME: 1 };

export interface BonusSelection {
  period: BonusPeriod | null;
  year: number | null;
  month: number | null;
  day: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;
const yearOf = (date: string) => Number(date.slice(0, 4));

/** Years with a window offered, newest first (a monthly window begun in December is named by January). */
export function yearsFor(period: BonusPeriod, today: string): number[] {
  const years: number[] = [];
  for (let y = yearOf(today) + 1; y >= yearOf(FIRST_DATES[period]); y--) {
    if (monthsFor(period, y, today).length > 0) years.push(y);
  }
  return years;
}

/** Months (1–12) of the year with a window offered: from the first window to the one under way today. */
export function monthsFor(period: BonusPeriod, year: number, today: string): number[] {
  const months: number[] = [];
  for (let m = 1; m <= 12; m++) {
    const has =
      period === 'W'
        ? weeklyDays(year, m, today).length > 0
        : within(period, dateText(year, m, MONTHLY_DAY[period]), today);
    if (has) months.push(m);
  }
  return months;
}

/** A window is offered once it has begun: the weekly Thursday, the monthly 21st before, the extra month's 1st. */
const within = (period: BonusPeriod, date: string, today: string) => {
  const window = windowOf(period, date);
  return window !== null && window.start <= today;
};

/** The Thursdays of a month that start a weekly window (from the anchor, up to today). */
export function weeklyDays(year: number, month: number, today: string): number[] {
  const days: number[] = [];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  for (let d = 1; d <= last; d++) {
    if (
      new Date(Date.UTC(year, month - 1, d)).getUTCDay() === 4 &&
      within('W', dateText(year, month, d), today)
    )
      days.push(d);
  }
  return days;
}

/** The date Search sends, or null while a needed selector is missing (Search is disabled then). */
export function searchDate(selection: BonusSelection): string | null {
  const { period, year, month, day } = selection;
  if (period === null || year === null || month === null) return null;
  if (period === 'W') return day === null ? null : dateText(year, month, day);
  return dateText(year, month, MONTHLY_DAY[period]);
}

/** Today's date (YYYY-MM-DD) where the user is. */
export function localToday(now = new Date()): string {
  return dateText(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/** The newest window of a period up to today: what the tab opens on. */
export function latestSelection(period: BonusPeriod, today: string): BonusSelection {
  for (const year of yearsFor(period, today)) {
    const month = monthsFor(period, year, today).at(-1);
    if (month === undefined) continue;
    const day = period === 'W' ? (weeklyDays(year, month, today).at(-1) ?? null) : null;
    return { period, year, month, day };
  }
  return { period, year: null, month: null, day: null };
}

/** Clawbacks run on the 20th of each month from 2022-07-20 (spec document 3 §4), newest first, up to today. */
export function clawbackDates(today: string): string[] {
  const dates: string[] = [];
  for (let index = 0; ; index++) {
    const date = dateText(2022 + Math.floor((6 + index) / 12), ((6 + index) % 12) + 1, 20);
    if (date > today) break;
    dates.push(date);
  }
  return dates.reverse();
}
