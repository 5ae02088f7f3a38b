import { describe, expect, it } from 'vitest';
import { billingYears, chosenMonth, monthLabel } from './pciMonth';

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
