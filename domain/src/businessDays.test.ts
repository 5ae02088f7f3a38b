import { describe, expect, it } from 'vitest';
import {
  businessDaysBetween,
  elapsedBusinessDays,
  goalDueBy,
  goalProgress,
  isBusinessDay,
  lastDayOfMonth,
} from './businessDays';

// November 2026: 1st is a Sunday; Veterans Day Wed 11th and Thanksgiving Thu 26th are bank holidays.
const holidays = new Set(['2026-11-11', '2026-11-26']);

describe('business days', () => {
  it('skip weekends and holidays', () => {
    expect(isBusinessDay('2026-11-02', holidays)).toBe(true);
    expect(isBusinessDay('2026-11-01', holidays)).toBe(false);
    expect(isBusinessDay('2026-11-07', holidays)).toBe(false);
    expect(isBusinessDay('2026-11-11', holidays)).toBe(false);
    // 21 weekdays in November 2026, less two holidays.
    expect(businessDaysBetween('2026-11-01', '2026-11-30', holidays)).toBe(19);
    expect(businessDaysBetween('2026-11-01', '2026-11-30', new Set())).toBe(21);
    expect(lastDayOfMonth('2024-02-01')).toBe('2024-02-29');
  });

  it('elapsed days are reduced by one above 2, otherwise set to 1', () => {
    expect(elapsedBusinessDays('2026-11-01', '2026-11-01', holidays)).toBe(1); // 0 elapsed → 1
    expect(elapsedBusinessDays('2026-11-01', '2026-11-02', holidays)).toBe(1); // 1 → 1
    expect(elapsedBusinessDays('2026-11-01', '2026-11-03', holidays)).toBe(1); // 2 → 1
    expect(elapsedBusinessDays('2026-11-01', '2026-11-04', holidays)).toBe(2); // 3 → 2
    expect(elapsedBusinessDays('2026-11-01', '2026-11-12', holidays)).toBe(7); // 8 (the 11th skipped) → 7
    expect(elapsedBusinessDays('2026-11-01', '2026-12-15', holidays)).toBe(19); // a past month counts whole
  });

  it('goal progress prorates the goal by elapsed business days', () => {
    // On Friday the 20th: 14 business days so far (holiday on the 11th), elapsed 13 of 19.
    const p = goalProgress('2026-11-01', '2026-11-20', 190, 117, holidays);
    expect(p.elapsedBusinessDays).toBe(13);
    expect(p.businessDays).toBe(19);
    expect(p.proratedGoal).toBe(130); // 190 × 13 / 19
    expect(p.percent).toBe(90); // 117 / 130
    expect(goalProgress('2026-10-01', '2026-11-20', 200, 210, holidays).percent).toBe(105);
    expect(goalProgress('2026-11-01', '2026-11-20', 0, 5, holidays).percent).toBeNull();
  });

  it('the goal due by a day: prorated this month, whole for a past month, nothing for a month not begun', () => {
    expect(goalDueBy('2026-11-01', '2026-11-20', 190, holidays)).toBe(130);
    expect(goalDueBy('2026-10-01', '2026-11-20', 200, holidays)).toBe(200);
    expect(goalDueBy('2026-12-01', '2026-11-20', 200, holidays)).toBeNull();
    expect(goalProgress('2026-12-01', '2026-11-20', 200, 0, holidays)).toMatchObject({
      proratedGoal: 0,
      elapsedBusinessDays: 0,
      percent: null,
    });
  });
});
