import { describe, expect, it } from 'vitest';
import { clampMonth } from './useMonthParam';

describe('clampMonth', () => {
  const [min, max] = ['2021-01-01', '2026-09-01'];
  it('keeps a month in range and falls back on anything unreadable', () => {
    expect(clampMonth('2024-05-01', min, max, max)).toBe('2024-05-01');
    expect(clampMonth(null, min, max, max)).toBe(max);
    expect(clampMonth('2024-05-15', min, max, max)).toBe(max);
    expect(clampMonth('2024-13-01', min, max, max)).toBe(max);
  });
  it('pulls months outside the range to its ends', () => {
    expect(clampMonth('2016-05-01', min, max, max)).toBe(min);
    expect(clampMonth('2030-01-01', min, max, max)).toBe(max);
  });
});
