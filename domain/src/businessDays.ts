/**
 * Business days and goal proration (spec document 1 §9). Days are 'YYYY-MM-DD' strings in UTC.
 */

const DAY = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

export function isBusinessDay(day: string, holidays: ReadonlySet<string>): boolean {
  const dow = toDate(day).getUTCDay();
  return dow !== 0 && dow !== 6 && !holidays.has(day);
}

/** Business days from `from` to `to`, both included. */
export function businessDaysBetween(from: string, to: string, holidays: ReadonlySet<string>): number {
  let n = 0;
  for (let t = toDate(from).getTime(); t <= toDate(to).getTime(); t += DAY) {
    if (isBusinessDay(iso(new Date(t)), holidays)) n++;
  }
  return n;
}

export function lastDayOfMonth(month: string): string {
  const d = toDate(month);
  return iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)));
}

/**
 * The business days of a month that count as elapsed on `today`: the month's business days up to today,
 * less one (today is not over) when more than 2, otherwise 1. A past month counts all its business days.
 */
export function elapsedBusinessDays(month: string, today: string, holidays: ReadonlySet<string>): number {
  const last = lastDayOfMonth(month);
  if (today > last) return businessDaysBetween(month, last, holidays);
  const elapsed = businessDaysBetween(month, today, holidays);
  return elapsed > 2 ? elapsed - 1 : 1;
}

export interface GoalProgress {
  goal: number;
  /** The month's goal prorated by elapsed business days. */
  proratedGoal: number;
  approved: number;
  /** approved ÷ prorated goal, in percent with one decimal; null when there is no goal. */
  percent: number | null;
  elapsedBusinessDays: number;
  businessDays: number;
}

/**
 * The part of a month's goal due by `today`, the one proration rule of the goal card and the yearly chart:
 * the goal × elapsed ÷ business days for the current month, the whole goal for a past month, null for a
 * month that has not begun (nothing is due yet).
 */
export function goalDueBy(
  month: string,
  today: string,
  goal: number,
  holidays: ReadonlySet<string>,
): number | null {
  if (today < month) return null;
  const businessDays = businessDaysBetween(month, lastDayOfMonth(month), holidays);
  const elapsed = Math.min(elapsedBusinessDays(month, today, holidays), businessDays);
  return businessDays === 0 ? goal : (goal * elapsed) / businessDays;
}

export function goalProgress(
  month: string,
  today: string,
  goal: number,
  approved: number,
  holidays: ReadonlySet<string>,
): GoalProgress {
  const businessDays = businessDaysBetween(month, lastDayOfMonth(month), holidays);
  const elapsed = today < month ? 0 : Math.min(elapsedBusinessDays(month, today, holidays), businessDays);
  const proratedGoal = goalDueBy(month, today, goal, holidays) ?? 0;
  const percent = proratedGoal > 0 ? Math.round((approved / proratedGoal) * 1000) / 10 : null;
  return {
    goal,
    proratedGoal: Math.round(proratedGoal * 10) / 10,
    approved,
    percent,
    elapsedBusinessDays: elapsed,
    businessDays,
  };
}
