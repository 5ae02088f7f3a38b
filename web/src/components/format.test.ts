import { describe, expect, it } from 'vitest';
import { formatCell, formatCount, formatCurrency, formatMoney, isNegativeAmount } from './format';

describe('formatMoney', () => {
  it.each([
    ['1234.50', '1,234.50'],
    ['1234.5', '1,234.50'],
    ['0', '0.00'],
    ['-987654321.25', '-987,654,321.25'],
    ['12345678901234567.89', '12,345,678,901,234,567.89'],
    ['1.005', '1.01'],
    ['999.995', '1,000.00'],
    ['-0.001', '0.00'],
    ['007.1', '7.10'],
  ])('%s → %s', (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });

  it('takes numbers, shows absent values as a dash and odd text as it came', () => {
    expect(formatMoney(1500)).toBe('1,500.00');
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney('n/a')).toBe('n/a');
    expect(formatMoney('1e3')).toBe('1e3');
  });

  it('rounds a number by the decimal it was written as (toFixed(2) read 1.005 as 1.00)', () => {
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(-8.385)).toBe('-8.39');
  });
});

describe('formatCurrency', () => {
  it.each([
    ['1234.56', '$1,234.56'],
    ['-1234.5', '-$1,234.50'],
    ['0', '$0.00'],
    ['-0.001', '$0.00'],
    [null, '—'],
    ['n/a', 'n/a'],
  ])('%s → %s', (input, expected) => {
    expect(formatCurrency(input)).toBe(expected);
  });

  it('tells negative amounts, not a rounded-away minus', () => {
    expect(isNegativeAmount('-0.01')).toBe(true);
    expect(isNegativeAmount('-0.001')).toBe(false);
    expect(isNegativeAmount('12')).toBe(false);
    expect(isNegativeAmount(null)).toBe(false);
  });
});

describe('formatCount and formatCell', () => {
  it('groups thousands', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount('42')).toBe('42');
    expect(formatCount(null)).toBe('—');
  });

  it('formats by column type', () => {
    expect(formatCell('money', '1000')).toBe('$1,000.00');
    expect(formatCell('money', '-0.5')).toBe('-$0.50');
    expect(formatCell('integer', 1000)).toBe('1,000');
    expect(formatCell('date', '2024-05-01T00:00:00.000Z')).toBe('2024-05-01');
    expect(formatCell('text', 'ACME')).toBe('ACME');
    const local = new Date(2024, 4, 1, 9, 5);
    expect(formatCell('datetime', local.toISOString())).toBe('2024-05-01 09:05');
    expect(formatCell('text', null)).toBe('—');
  });
});
