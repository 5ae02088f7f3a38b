import { describe, expect, it } from 'vitest';
import { clampYear } from './useYearParam';

describe('clampYear', () => {
  it('keeps a year inside the range', () => {
    expect(clampYear('2022', 2020, 2026)).toBe(2022);
    expect(clampYear('2020', 2020, 2026)).toBe(2020);
    expect(clampYear('2026', 2020, 2026)).toBe(2026);
  });

  it('moves a year outside the range to its nearest end', () => {
    expect(clampYear('2019', 2020, 2026)).toBe(2020);
    expect(clampYear('1999', 2020, 2026)).toBe(2020);
    expect(clampYear('2031', 2020, 2026)).toBe(2026);
  });

  it('opens on the current year when the address has no readable year', () => {
    expect(clampYear(null, 2020, 2026)).toBe(2026);
    expect(clampYear('', 2020, 2026)).toBe(2026);
    expect(clampYear('20x2', 2020, 2026)).toBe(2026);
    expect(clampYear('2022.5', 2020, 2026)).toBe(2026);
    expect(clampYear('02022', 2020, 2026)).toBe(2026);
  });
});
