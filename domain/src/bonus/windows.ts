import type { RunKind } from '../contracts/bonus';

/**
 * Bonus run windows (spec document 3 §4, §9), all in calendar days written YYYY-MM-DD. docs/bonus.md explains
 * each with examples. A window covers start..end (both included) and runs on runDate, which is also the bonus
 * date of the rows it computes.
 */
export interface BonusWindow {
  kind: RunKind;
  start: string;
  end: string;
  runDate: string;
}

/** The first weekly window starts on this Thursday. */
export const WEEKLY_ANCHOR = '2022-05-26';
/** The first monthly window starts on this 21st. */
export const MONTHLY_ANCHOR = '2022-06-21';
/** The first Monthly Extra window (the second monthly set) is this calendar month. */
export const EXTRA_ANCHOR = '2023-06-01';
/** The first clawback run. */
export const CLAWBACK_ANCHOR = '2022-07-20';

const DAY_MS = 86_400_000;
const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromTime = (t: number) => new Date(t).toISOString().slice(0, 10);

export function addDays(day: string, n: number): string {
  return fromTime(toTime(day) + n * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysFrom(from: string, to: string): number {
  return Math.round((toTime(to) - toTime(from)) / DAY_MS);
}

const ym = (day: string) => ({ y: Number(day.slice(0, 4)), m: Number(day.slice(5, 7)) });
const dayOf = (y: number, m: number, d: number) => fromTime(Date.UTC(y, m - 1, d));

/** The Thursday-to-Wednesday window holding `day`; null before the first one. */
export function weeklyWindow(day: string): BonusWindow | null {
  const offset = daysFrom(WEEKLY_ANCHOR, day);
  if (offset < 0) return null;
  const start = addDays(WEEKLY_ANCHOR, Math.floor(offset / 7) * 7);
  const end = addDays(start, 6);
  return { kind: 'W', start, end, runDate: addDays(end, 1) };
}

/**
 * The 21st-to-20th window holding `day`; null before the first one. The screen sends the first of the chosen
 * month, so choosing a month means the window ending on its 20th.
 */
export function monthlyWindow(day: string): BonusWindow | null {
  const { y, m: month } = ym(day);
  const m = Number(day.slice(8, 10)) >= 21 ? month + 1 : month;
  const start = dayOf(y, m - 1, 21);
  if (start < MONTHLY_ANCHOR) return null;
  const end = dayOf(y, m, 20);
  return { kind: 'M', start, end, runDate: addDays(end, 1) };
}

/** The calendar month of `day`, run the day after it ends; null before the first one. */
export function extraWindow(day: string): BonusWindow | null {
  const { y, m } = ym(day);
  const start = dayOf(y, m, 1);
  if (start < EXTRA_ANCHOR) return null;
  const end = dayOf(y, m + 1, 0);
  return { kind: 'ME', start, end, runDate: addDays(end, 1) };
}

/**
 * The clawback run on the 20th of `day`'s month; it looks at everything up to that day, so its window is the
 * month since the previous run (21st to 20th), as the monthly bonus's.
 */
export function clawbackWindow(day: string): BonusWindow | null {
  const { y, m } = ym(day);
  const runDate = dayOf(y, m, 20);
  if (runDate < CLAWBACK_ANCHOR) return null;
  return { kind: 'CB', start: dayOf(y, m - 1, 21), end: runDate, runDate };
}

export function windowOf(kind: RunKind, day: string): BonusWindow | null {
  switch (kind) {
    case 'W':
      return weeklyWindow(day);
    case 'M':
      return monthlyWindow(day);
    case 'ME':
      return extraWindow(day);
    case 'CB':
      return clawbackWindow(day);
  }
}

/** The newest window whose run date is on or before `today` (what a scheduled run on `today` computes). */
export function lastDueWindow(kind: RunKind, today: string): BonusWindow | null {
  if (kind === 'CB') {
    const w = clawbackWindow(today);
    return w && w.runDate <= today ? w : clawbackWindow(dayOf(ym(today).y, ym(today).m - 1, 1));
  }
  const current = windowOf(kind, today);
  if (current && current.runDate <= today) return current;
  const before = current ? addDays(current.start, -1) : today;
  const previous = windowOf(kind, before);
  return previous && previous.runDate <= today ? previous : null;
}

/** The window after the last due one: the one a dry-run preview shows. */
export function nextWindow(kind: RunKind, today: string): BonusWindow | null {
  const last = lastDueWindow(kind, today);
  // A clawback run's "window" ends on its run date; 12 days on is always in the following month.
  const after = last ? (kind === 'CB' ? addDays(last.runDate, 12) : addDays(last.end, 1)) : today;
  return windowOf(kind, after) ?? windowOf(kind, anchorOf(kind));
}

const anchorOf = (kind: RunKind) =>
  ({ W: WEEKLY_ANCHOR, M: MONTHLY_ANCHOR, ME: EXTRA_ANCHOR, CB: CLAWBACK_ANCHOR })[kind];

/** Every window of a kind whose run date is on or before `today`, oldest first. */
export function dueWindows(kind: RunKind, today: string): BonusWindow[] {
  const out: BonusWindow[] = [];
  let w = windowOf(kind, kind === 'M' ? addDays(MONTHLY_ANCHOR, 29) : anchorOf(kind));
  while (w && w.runDate <= today) {
    out.push(w);
    w = windowOf(kind, addDays(w.kind === 'CB' ? w.runDate : w.end, kind === 'CB' ? 12 : 1));
  }
  return out;
}

/** The clawback run dates from 2022-07-20 to `today` (spec §4's clawback date list). */
export function clawbackDates(today: string): string[] {
  return dueWindows('CB', today).map((w) => w.runDate);
}
