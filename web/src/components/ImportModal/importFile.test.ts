import { describe, expect, it } from 'vitest';
import { canImport, fileProblem } from './importFile';

describe('the Import button', () => {
  it('is enabled only for a non-empty .xlsx file', () => {
    expect(canImport(null)).toBe(false);
    expect(canImport({ name: 'residuals.xlsx', size: 10 })).toBe(true);
    expect(canImport({ name: 'RESIDUALS.XLSX', size: 10 })).toBe(true);
    expect(canImport({ name: 'residuals.xlsx', size: 0 })).toBe(false);
    expect(canImport({ name: 'residuals.xls', size: 10 })).toBe(false);
    expect(canImport({ name: 'residuals.csv', size: 10 })).toBe(false);
    expect(canImport({ name: 'residuals.xlsx.csv', size: 10 })).toBe(false);
  });

  it('says why a file cannot be imported', () => {
    expect(fileProblem(null)).toBeNull();
    expect(fileProblem({ name: 'a.csv', size: 3 })).toMatch(/xlsx/);
    expect(fileProblem({ name: 'a.xlsx', size: 0 })).toBe('This file is empty.');
    expect(fileProblem({ name: 'a.xlsx', size: 3 })).toBeNull();
  });
});
