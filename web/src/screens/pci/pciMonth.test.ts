import { describe, expect, it } from 'vitest';
import { billableNow, billingYears, chosenMonth, monthLabel } from './pciMonth';

const today = new Date(2026, 10, 23);

describe('billing month choice', () => {
  it('offers the years from 2022 to the current one, newest first', () => {
    expect(billingYears(today)).toEqual([2026, 2025, 2024, 2023, 2022]);
    expect(billingYears(new Date(2022, 0, 1))).toEqual([2022]);
  });

  it('reads the month from the address and leaves it unchosen when absent or wrong', () => {
    expect(chosenMonth(new URLSearchParams('year=2025&month=3'), today)).toEqual({ year: 2025, month: 3 });
    expect(chosenMonth(new URLSearchParams(''), today)).toEqual({ year: 2026, month: null });
    expect(chosenMonth(new URLSearchParams('year=2021&month=-1'), today)).toEqual({
      year: 2026,
      month: null,
    });
    expect(chosenMonth(new URLSearchParams('year=2024&month=13'), today)).toEqual({
      year: 2024,
      month: null,
    });
    expect(chosenMonth(new URLSearchParams('year=2024&month=2.5'), today)).toEqual({
      year: 2024,
      month: null,
    });
  });

  it('names a month', () => {
    expect(monthLabel({ year: 2026, month: 10 })).toBe('October 2026');
  });
});

describe('which months a run may bill', () => {
  it('the current month and the previous one, across a new year too', () => {
    expect(billableNow({ year: 2026, month: 11 }, today)).toBe(true);
    expect(billableNow({ year: 2026, month: 10 }, today)).toBe(true);
    expect(billableNow({ year: 2026, month: 9 }, today)).toBe(false);
    expect(billableNow({ year: 2026, month: 12 }, today)).toBe(false);
    expect(billableNow({ year: 2025, month: 12 }, new Date(2026, 0, 5))).toBe(true);
    expect(billableNow({ year: 2025, month: 11 }, new Date(2026, 0, 5))).toBe(false);
  });
});
