import { describe, expect, it } from 'vitest';
import { cellValue, dashboardFileName, sheetName } from './workbook';

describe('dashboard export naming', () => {
  it('names the file Dashboard plus the local date and time', () => {
    expect(dashboardFileName(new Date(2026, 0, 5, 7, 8, 9))).toBe('Dashboard 2026-01-05 07-08-09.xlsx');
    expect(dashboardFileName(new Date(2026, 10, 21, 23, 59, 0))).toBe('Dashboard 2026-11-21 23-59-00.xlsx');
  });

  it('names sheets Sheet 0, Sheet 1, … in order', () => {
    expect([0, 1, 2].map(sheetName)).toEqual(['Sheet 0', 'Sheet 1', 'Sheet 2']);
  });

  it('keeps numbers as numbers and leaves absent values empty', () => {
    expect(cellValue(12)).toBe(12);
    expect(cellValue('7410')).toBe('7410');
    expect(cellValue(null)).toBeNull();
    expect(cellValue(undefined)).toBeNull();
  });
});
