import type { ReturnRateRow } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { formatRate, rateOf, rateRowFilters, thresholdLabel } from './returnRateView';

const row: ReturnRateRow = {
  key: '4417010000012345',
  mid: '4417010000012345',
  dba: 'Corner Cafe',
  iso: 'Summit Payment Group',
  entries: 400,
  returns: 9,
  unauthorized: 3,
  administrative: 2,
  unauthorizedRate: 0.0075,
  administrativeRate: 0.005,
  overallRate: 0.0225,
  over: ['unauthorized'],
};

describe('the return-rate panel', () => {
  it('shows rates as percentages with two decimals, and none without debits', () => {
    expect(formatRate(0.0075)).toBe('0.75 %');
    expect(formatRate(0.15)).toBe('15.00 %');
    expect(formatRate(0)).toBe('0.00 %');
    expect(formatRate(null)).toBe('—');
  });

  it('names the NACHA thresholds', () => {
    expect(thresholdLabel('unauthorized')).toBe('0.5 %');
    expect(thresholdLabel('administrative')).toBe('3 %');
    expect(thresholdLabel('overall')).toBe('15 %');
  });

  it('reads each kind of rate from its field', () => {
    expect(rateOf(row, 'unauthorized')).toBe(0.0075);
    expect(rateOf(row, 'administrative')).toBe(0.005);
    expect(rateOf(row, 'overall')).toBe(0.0225);
  });

  it('filters the table to a merchant’s returns in the window', () => {
    expect(rateRowFilters('merchant', row, { from: '2026-09-24', to: '2026-11-22' })).toEqual([
      { id: 'IndividualIdentificationNumber', kind: 'text', value: '4417010000012345' },
      { id: 'EffectiveEntryDATE', kind: 'dateRange', from: '2026-09-24', to: '2026-11-22' },
    ]);
  });

  it('filters the table to an ISO’s returns in the window', () => {
    const iso = { ...row, key: 'Summit Payment Group', mid: null, dba: null };
    expect(rateRowFilters('iso', iso, { from: '2026-09-24', to: '2026-11-22' })[0]).toEqual({
      id: 'GroupLevel1Name',
      kind: 'text',
      value: 'Summit Payment Group',
    });
  });
});
