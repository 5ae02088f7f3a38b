import { describe, expect, it } from 'vitest';
import { maskAccountNumber, maskLast4, maskRoutingNumber, maskSsn } from './mask';

describe('masks', () => {
  it('keeps only the last four characters of a value', () => {
    expect(maskLast4('123456789')).toBe('•••••6789');
    expect(maskLast4('12345')).toBe('•2345');
    expect(maskLast4('')).toBe('');
    expect(maskLast4('1234')).toBe('••••');
    expect(maskLast4('12')).toBe('••');
    expect(maskLast4('ab😀cdef')).toBe('•••cdef');
  });

  it('masks an SSN in its usual shape, whatever its punctuation', () => {
    expect(maskSsn('123456789')).toBe('•••-••-6789');
    expect(maskSsn('123-45-6789')).toBe('•••-••-6789');
    expect(maskSsn(' 123 45 6789 ')).toBe('•••-••-6789');
    expect(maskSsn('')).toBe('');
    expect(maskSsn('12345678')).toBe('••••••••');
    expect(maskSsn('6789')).toBe('••••');
  });

  it('masks account numbers without telling their length', () => {
    expect(maskAccountNumber('000123456789')).toBe('••••6789');
    expect(maskAccountNumber('98765')).toBe('••••8765');
    expect(maskAccountNumber('1234-5678 9012')).toBe('••••9012');
    expect(maskAccountNumber('12')).toBe('••••');
    expect(maskAccountNumber('')).toBe('');
  });

  it('masks routing numbers to their last four digits', () => {
    expect(maskRoutingNumber('021000021')).toBe('•••••0021');
    expect(maskRoutingNumber('021-000-021')).toBe('•••••0021');
    expect(maskRoutingNumber('')).toBe('');
  });
});
