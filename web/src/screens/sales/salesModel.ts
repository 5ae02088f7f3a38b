import {
  addMonths,
  type GoalRow,
  goalDueBy,
  lastDayOfMonth,
  monthStart,
  SALES_FIRST_MONTH,
  type YearRow,
} from '@paydesk/domain';

/** The UTC day the server counts "today" by, 'YYYY-MM-DD'. */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Whole months from `from` to `to` ('YYYY-MM-01'), negative when `to` is earlier. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}

/** The earliest month offset: January 2019 counted back from the current month. */
export function minCntr(current: string): number {
  return -monthsBetween(SALES_FIRST_MONTH, current);
}

/** The month offset from the URL, kept between January 2019 and the current month; anything unreadable is 0. */
export function clampCntr(value: string | null, current: string): number {
  if (value === null || !/^-?\d+$/.test(value.trim())) return 0;
  const n = Number(value);
  return Math.min(0, Math.max(minCntr(current), n));
}

export const monthOfCntr = (cntr: number, current: string) => addMonths(current, cntr);
export const cntrOfMonth = (month: string, current: string) => monthsBetween(current, month);

/** Month navigation: previous stops at January 2019, next at the current month. */
export const canGoPrevious = (cntr: number, current: string) => cntr > minCntr(current);
export const canGoNext = (cntr: number) => cntr < 0;

/** The last day of the month that has happened: today in the current month, the month's end before. */
export function lastDayShown(month: string, today: string): string {
  const end = lastDayOfMonth(month);
  return today < end ? today : end;
}

export const currentMonth = (now = new Date()) => monthStart(now);

// ---------------------------------------------------------------- partner tables

export type PartnerView = 'approved' | 'closed' | 'today';

/** The partner table's forward arrow: approvals by month → closures by month → today (live only) → back. */
export function nextPartnerView(view: PartnerView, live: boolean): PartnerView {
  if (view === 'approved') return 'closed';
  if (view === 'closed') return live ? 'today' : 'approved';
  return 'approved';
}

/** The in-house table toggles between the month's approvals and today's (today only in the live view). */
export function nextInHouseView(view: PartnerView, live: boolean): PartnerView {
  return view === 'approved' && live ? 'today' : 'approved';
}

/** A view that cannot be shown for this month (today's, on a past month) falls back to approvals. */
export function viewFor(view: PartnerView, live: boolean, inHouse: boolean): PartnerView {
  if (view === 'today' && !live) return 'approved';
  if (inHouse && view === 'closed') return 'approved';
  return view;
}

export function partnerViewTitle(view: PartnerView, monthName: string): string {
  switch (view) {
    case 'approved':
      return `Approvals in ${monthName}`;
    case 'closed':
      return `Closures in ${monthName}`;
    case 'today':
      return 'Submitted and approved today';
  }
}

// ---------------------------------------------------------------- by profile

export interface ProfileSplit {
  total: number;
  PayLo: number;
  Traditional: number;
  'High Risk': number;
  /** What the three named profiles leave: applications with no profile yet. */
  Unassigned: number;
}

/** A by-profile answer as the four profiles; the remainder of the total is Unassigned. */
export function profileSplit(total = 0, payLo = 0, traditional = 0, highRisk = 0): ProfileSplit {
  return {
    total,
    PayLo: payLo,
    Traditional: traditional,
    'High Risk': highRisk,
    Unassigned: Math.max(0, total - payLo - traditional - highRisk),
  };
}

// ---------------------------------------------------------------- the year against goals

export interface YearMonth {
  Month: string;
  /** Null for a month that has not begun: nothing to draw. */
  Approved: number | null;
  /** The goal due by today (goalDueBy, as the goal card): null without a goal or before the month begins. */
  goalDue: number | null;
  /** The whole month's goal; null without a goal. */
  monthGoal: number | null;
}

/**
 * The yearly chart's months. Each compares approvals with the goal due so far by the goal card's own rule
 * (the current month prorated by business days); a month not yet begun has neither. Without goals (an
 * ISO-bound user: the goals are the company's) the approvals stand alone.
 */
export function yearMonths(
  year: readonly YearRow[],
  goals: readonly GoalRow[],
  today: string,
  holidays: ReadonlySet<string>,
): YearMonth[] {
  return year.map((row) => {
    const month = `${row.Month}-01`;
    const begun = month <= today;
    const goal = goals.find((g) => g.Month === row.Month)?.goal ?? null;
    const monthGoal = goal === null ? null : Number(goal);
    const due = monthGoal === null || !begun ? null : goalDueBy(month, today, monthGoal, holidays);
    return {
      Month: row.Month,
      Approved: begun ? row.Approved : null,
      goalDue: due === null ? null : Math.round(due * 10) / 10,
      monthGoal,
    };
  });
}

/** True when the answer carries goals; an ISO-bound user's goals are all null. */
export const hasGoals = (goals: readonly GoalRow[]) => goals.some((g) => g.goal !== null);
