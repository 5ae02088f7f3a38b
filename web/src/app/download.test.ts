import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './api';

describe('filenameFromDisposition', () => {
  it.each([
    ['attachment; filename="SelfServe-2026-10.xlsx"', 'SelfServe-2026-10.xlsx'],
    ['attachment; filename=Residual.xlsx', 'Residual.xlsx'],
    ['attachment; filename="x.xlsx"; filename*=UTF-8\'\'Caf%C3%A9%20list.xlsx', 'Café list.xlsx'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', 'fallback.xlsx'],
  ])('%s → %s', (header, expected) => {
    expect(filenameFromDisposition(header, 'fallback.xlsx')).toBe(expected);
  });

  it('uses the fallback without a header', () => {
    expect(filenameFromDisposition(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
