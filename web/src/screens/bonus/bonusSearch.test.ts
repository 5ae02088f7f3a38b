import { windowOf } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  clawbackDates,
  latestSelection,
  monthsFor,
  offeredDates,
  searchDate,
  weeklyDays,
  yearsFor,
} from './bonusSearch';

describe('the Bonuses tab selectors', () => {
  it('offers years from each period’s first window to the last one run', () => {
    expect(yearsFor('W', '2026-11-22')).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(yearsFor('ME', '2026-11-22')).toEqual([2026, 2025, 2024, 2023]);
  });

  it('offers the Thursdays of a month whose week has run, none before 2022-05-26', () => {
    // May 2022: Thursdays 5, 12, 19, 26; the first window starts on the 26th and runs on 2022-06-02.
    expect(weeklyDays(2022, 5, '2026-11-22')).toEqual([26]);
    expect(weeklyDays(2022, 5, '2022-06-01')).toEqual([]);
    // November 2026: the week of the 12th runs on the 19th; the week of the 19th on the 26th.
    expect(weeklyDays(2026, 11, '2026-11-22')).toEqual([5, 12]);
    expect(weeklyDays(2026, 11, '2026-11-26')).toEqual([5, 12, 19]);
  });

  it('offers the months whose window has run', () => {
    // The first monthly window is 2022-06-21 to 2022-07-20, named by July, run on 2022-07-21.
    expect(monthsFor('M', 2022, '2026-11-22')).toEqual([7, 8, 9, 10, 11, 12]);
    expect(monthsFor('M', 2026, '2026-11-22').at(-1)).toBe(11);
    expect(monthsFor('M', 2026, '2026-11-20').at(-1)).toBe(10);
    // The extra bonuses of a month run the day after it ends, the first for June 2023.
    expect(monthsFor('ME', 2023, '2026-11-22')).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(monthsFor('ME', 2026, '2026-11-22').at(-1)).toBe(10);
    expect(monthsFor('ME', 2026, '2026-11-01').at(-1)).toBe(10);
  });

  it('enables Search only when year, month and (weekly) day are chosen', () => {
    expect(searchDate({ period: null, year: 2026, month: 11, day: 5 })).toBeNull();
    expect(searchDate({ period: 'W', year: 2026, month: 11, day: null })).toBeNull();
    expect(searchDate({ period: 'W', year: 2026, month: 11, day: 5 })).toBe('2026-11-05');
    expect(searchDate({ period: 'M', year: 2026, month: null, day: null })).toBeNull();
    expect(searchDate({ period: 'M', year: 2026, month: 3, day: null })).toBe('2026-03-20');
    expect(searchDate({ period: 'ME', year: 2026, month: 3, day: 9 })).toBe('2026-03-01');
  });

  it('sends a date the domain reads as the window chosen', () => {
    const window = (period: 'W' | 'M' | 'ME', day: number | null) => {
      const date = searchDate({ period, year: 2026, month: 1, day });
      return date && windowOf(period, date);
    };
    expect(window('W', 8)).toMatchObject({ start: '2026-01-08', end: '2026-01-14' });
    expect(window('M', null)).toMatchObject({ start: '2025-12-21', end: '2026-01-20' });
    expect(window('ME', null)).toMatchObject({ start: '2026-01-01', end: '2026-01-31' });
    for (const period of ['W', 'M', 'ME'] as const) {
      for (const date of offeredDates(period, '2026-11-22').slice(0, 5))
        expect((windowOf(period, date)?.runDate ?? '9999') <= '2026-11-22').toBe(true);
    }
  });

  it('opens on the newest window that has run', () => {
    expect(latestSelection('W', '2026-11-22')).toEqual({ period: 'W', year: 2026, month: 11, day: 12 });
    expect(latestSelection('M', '2026-01-05')).toEqual({ period: 'M', year: 2025, month: 12, day: null });
    expect(latestSelection('M', '2026-01-21')).toEqual({ period: 'M', year: 2026, month: 1, day: null });
    expect(latestSelection('ME', '2026-11-22')).toEqual({ period: 'ME', year: 2026, month: 10, day: null });
  });
});

describe('the clawback dates', () => {
  it('step from 2022-07-20 to the 20th of each month up to today, newest first', () => {
    const dates = clawbackDates('2026-11-22');
    expect(dates[0]).toBe('2026-11-20');
    expect(dates.at(-1)).toBe('2022-07-20');
    expect(dates).toHaveLength(53);
    expect(clawbackDates('2026-11-19')[0]).toBe('2026-10-20');
    expect(clawbackDates('2022-07-19')).toEqual([]);
  });
});
