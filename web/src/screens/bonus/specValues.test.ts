import { describe, expect, it } from 'vitest';
import { amountText, groupIdsOf, isoNames } from './specValues';

const isos = [
  { iso_name: 'Summit Payments', group_id: 'G100, G101' },
  { iso_name: 'Acme ISO', group_id: 'A1' },
  { iso_name: 'Summit Payments', group_id: 'G101,G102' },
];

describe('the specification forms’ values', () => {
  it('lists each ISO once, by name', () => {
    expect(isoNames(isos)).toEqual(['Acme ISO', 'Summit Payments']);
    expect(isoNames(undefined)).toEqual([]);
  });

  it('fills an ISO’s group IDs, normalized and each once', () => {
    expect(groupIdsOf(isos, 'Summit Payments')).toBe('G100, G101, G102');
    expect(groupIdsOf(isos, 'Nobody')).toBe('');
  });

  it('shows whole amounts without cents', () => {
    expect(amountText('250.00')).toBe('250');
    expect(amountText('12.50')).toBe('12.50');
    expect(amountText(null)).toBe('');
  });
});
