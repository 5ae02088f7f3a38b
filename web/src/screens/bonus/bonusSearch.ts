/**
 * The Bonuses tab's selectors (spec document 3 §2.3, §4, §5, §9): a period, then year, month and, for Weekly
 * only, a day. The date sent is built from them, YYYY-MM-DD; Search waits until every selector the period
 * needs is chosen. Only windows that have run (the domain's dueWindows: from each period's anchor to today)
 * are offered, named as docs/bonus.md says: a weekly window by its Thursday, a monthly window by the 20th that
 * ends it, a month's extra bonuses by its 1st.
 */
import { type BonusPeriod, type BonusWindow, dueWindows } from '@paydesk/domain';

export interface BonusSelection {
  period: BonusPeriod | null;
  year: number | null;
  month: number | null;
  day: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** The date a window goes by in the selectors and in the request. */
const nameOf = (period: BonusPeriod, window: BonusWindow) => (period === 'M' ? window.end : window.start);

/** The dates of the period's windows that have run, newest first. */
export function offeredDates(period: BonusPeriod, today: string): string[] {
  return dueWindows(period, today)
    .map((window) => nameOf(period, window))
    .reverse();
}

const parts = (date: string) => ({
  year: Number(date.slice(0, 4)),
  month: Number(date.slice(5, 7)),
  day: Number(date.slice(8, 10)),
});

/** Years with a window offered, newest first. */
export function yearsFor(period: BonusPeriod, today: string): number[] {
  return [...new Set(offeredDates(period, today).map((d) => parts(d).year))];
}

/** Months (1–12) of the year with a window offered, in calendar order. */
export function monthsFor(period: BonusPeriod, year: number, today: string): number[] {
  const months = offeredDates(period, today)
    .map(parts)
    .filter((p) => p.year === year)
    .map((p) => p.month);
  return [...new Set(months)].sort((a, b) => a - b);
}

/** The Thursdays of a month that start a weekly window offered. */
export function weeklyDays(year: number, month: number, today: string): number[] {
  return offeredDates('W', today)
    .map(parts)
    .filter((p) => p.year === year && p.month === month)
    .map((p) => p.day)
    .sort((a, b) => a - b);
}

/** The date Search sends, or null while a needed selector is missing (Search is disabled then). */
export function searchDate(selection: BonusSelection): string | null {
  const { period, year, month, day } = selection;
  if (period === null || year === null || month === null) return null;
  if (period === 'W') return day === null ? null : dateText(year, month, day);
  return dateText(year, month, period === 'M' ? 20 : 1);
}

/** Today's date (YYYY-MM-DD) where the user is. */
export function localToday(now = new Date()): string {
  return dateText(now.getFullYear(), now.getMonth() + 1, now.getDate());
}

/** The newest window of a period that has run: what the tab opens on. */
export function latestSelection(period: BonusPeriod, today: string): BonusSelection {
  const newest = offeredDates(period, today)[0];
  if (!newest) return { period, year: null, month: null, day: null };
  const { year, month, day } = parts(newest);
  return { period, year, month, day: period === 'W' ? day : null };
}

/** Clawbacks run on the 20th of each month from 2022-07-20 (spec document 3 §4), newest first, up to today. */
export function clawbackDates(today: string): string[] {
  return dueWindows('CB', today)
    .map((window) => window.runDate)
    .reverse();
}
