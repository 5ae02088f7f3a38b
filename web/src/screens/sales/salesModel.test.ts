import { goalProgress } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  canGoNext,
  canGoPrevious,
  clampCntr,
  cntrOfMonth,
  hasGoals,
  lastDayShown,
  minCntr,
  monthOfCntr,
  nextInHouseView,
  nextPartnerView,
  type PartnerView,
  profileSplit,
  viewFor,
  yearMonths,
} from './salesModel';

const current = '2026-11-01';

describe('month navigation', () => {
  it('counts back to January 2019 from the current month', () => {
    expect(minCntr(current)).toBe(-94);
    expect(monthOfCntr(-94, current)).toBe('2019-01-01');
    expect(cntrOfMonth('2019-01-01', current)).toBe(-94);
    expect(cntrOfMonth(current, current)).toBe(0);
    expect(monthOfCntr(-11, current)).toBe('2025-12-01');
  });

  it('blocks previous at January 2019 and next at the current month', () => {
    expect(canGoPrevious(-94, current)).toBe(false);
    expect(canGoPrevious(-93, current)).toBe(true);
    expect(canGoNext(0)).toBe(false);
    expect(canGoNext(-1)).toBe(true);
  });

  it('keeps the offset from the URL in range and reads anything else as this month', () => {
    expect(clampCntr(null, current)).toBe(0);
    expect(clampCntr('-3', current)).toBe(-3);
    expect(clampCntr('5', current)).toBe(0);
    expect(clampCntr('-500', current)).toBe(-94);
    expect(clampCntr('abc', current)).toBe(0);
    expect(clampCntr('-1.5', current)).toBe(0);
  });

  it('shows a past month up to its last day and the current one up to today', () => {
    expect(lastDayShown('2026-11-01', '2026-11-21')).toBe('2026-11-21');
    expect(lastDayShown('2026-02-01', '2026-11-21')).toBe('2026-02-28');
  });
});

describe('partner tables', () => {
  const cycle = (next: (v: PartnerView, live: boolean) => PartnerView, live: boolean, steps: number) => {
    const seen: PartnerView[] = ['approved'];
    for (let i = 0; i < steps; i++) seen.push(next(seen[seen.length - 1] as PartnerView, live));
    return seen;
  };

  it('cycles approvals → closures → today → approvals in the live view', () => {
    expect(cycle(nextPartnerView, true, 3)).toEqual(['approved', 'closed', 'today', 'approved']);
  });

  it('skips today on a past month', () => {
    expect(cycle(nextPartnerView, false, 2)).toEqual(['approved', 'closed', 'approved']);
  });

  it('toggles the in-house table between the month and today, live only', () => {
    expect(cycle(nextInHouseView, true, 2)).toEqual(['approved', 'today', 'approved']);
    expect(cycle(nextInHouseView, false, 1)).toEqual(['approved', 'approved']);
  });

  it('falls back to approvals when the view is not available for the month', () => {
    expect(viewFor('today', false, false)).toBe('approved');
    expect(viewFor('today', true, false)).toBe('today');
    expect(viewFor('closed', false, false)).toBe('closed');
    expect(viewFor('closed', true, true)).toBe('approved');
  });
});

describe('profileSplit', () => {
  it('counts what the named profiles leave as Unassigned', () => {
    expect(profileSplit(10, 4, 3, 1)).toEqual({
      total: 10,
      PayLo: 4,
      Traditional: 3,
      'High Risk': 1,
      Unassigned: 2,
    });
    expect(profileSplit()).toEqual({ total: 0, PayLo: 0, Traditional: 0, 'High Risk': 0, Unassigned: 0 });
  });
});

describe('the year against goals', () => {
  // November 2026: Veterans Day (11th) and Thanksgiving (26th) are bank holidays; 19 business days.
  const holidays = new Set(['2026-11-11', '2026-11-26']);
  const year = [
    { Month: '2026-10', Approved: 210 },
    { Month: '2026-11', Approved: 117 },
    { Month: '2026-12', Approved: 0 },
  ];
  const goals = [
    { Month: '2026-10', goal: 200 },
    { Month: '2026-11', goal: 190 },
    { Month: '2026-12', goal: 180 },
  ];

  it('prorates the current month as the goal card does and draws nothing for a month not begun', () => {
    const rows = yearMonths(year, goals, '2026-11-20', holidays);
    expect(rows).toEqual([
      { Month: '2026-10', Approved: 210, goalDue: 200, monthGoal: 200 },
      // The goal card's prorated goal on the 20th: 190 × 13 / 19 business days.
      { Month: '2026-11', Approved: 117, goalDue: 130, monthGoal: 190 },
      { Month: '2026-12', Approved: null, goalDue: null, monthGoal: 180 },
    ]);
    expect(rows[1]?.goalDue).toBe(goalProgress('2026-11-01', '2026-11-20', 190, 117, holidays).proratedGoal);
  });

  it('without goals (an ISO-bound user) keeps the approvals and no goal', () => {
    const none = goals.map((g) => ({ ...g, goal: null }));
    expect(hasGoals(none)).toBe(false);
    expect(hasGoals(goals)).toBe(true);
    expect(yearMonths(year, none, '2026-11-20', holidays).map((r) => [r.Approved, r.goalDue])).toEqual([
      [210, null],
      [117, null],
      [null, null],
    ]);
  });
});
