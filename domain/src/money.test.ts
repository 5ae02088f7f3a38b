import { describe, expect, it } from 'vitest';
import {
  add,
  allocate,
  basisPoints,
  compare,
  divRound,
  Fraction,
  formatMoney,
  type Money,
  MoneyError,
  money,
  mulRate,
  parseMoney,
  percent,
  sub,
  sum,
  times,
  toDecimalString,
} from './money';

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

/** The oracle: cents of a decimal string by digit surgery, with no arithmetic shared with the module. */
function centsOf(text: string): bigint {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = BigInt(whole + fraction.padEnd(2, '0'));
  return text.startsWith('-') ? -cents : cents;
}

describe('parseMoney', () => {
  it.each([
    ['1234.56', 123456n],
    ['-8.39', -839n],
    ['0', 0n],
    ['.5', 50n],
    ['7.', 700n],
    ['007.10', 710n],
    ['+3', 300n],
    ['1.500', 150n],
    ['1000000000000.00', 100000000000000n],
    ['  12.30 ', 1230n],
  ])('reads "%s" as %s cents', (text, cents) => {
    expect(parseMoney(text)).toBe(cents);
  });

  it('reads a number as the decimal it was written as', () => {
    expect(parseMoney(0.1)).toBe(10n);
    expect(parseMoney(1250.5)).toBe(125050n);
    expect(parseMoney(-0.07)).toBe(-7n);
    expect(parseMoney(1e21)).toBe(100000000000000000000000n);
    expect(parseMoney(1.005, { round: 'half-up' })).toBe(101n); // the float is 1.00499999…; the typed value is 1.005
  });

  it('refuses text that is not a plain decimal, and NaN or Infinity', () => {
    for (const text of ['', ' ', '-', '.', 'abc', '1,234.56', '$5', '1e3', '1.2.3', '12 34', '--1', 'NaN'])
      expect(() => parseMoney(text), text).toThrow(MoneyError);
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(() => parseMoney(n)).toThrow(MoneyError);
  });

  it('refuses more than two decimals unless told how to round', () => {
    expect(() => parseMoney('1.005')).toThrow(/More than two decimals/);
    expect(() => parseMoney(0.001)).toThrow(/More than two decimals/);
    expect(() => parseMoney(1e-7)).toThrow(/More than two decimals/);
    expect(parseMoney('1.005', { round: 'half-up' })).toBe(101n);
    expect(parseMoney('1.005', { round: 'half-even' })).toBe(100n);
    expect(parseMoney('-1.005', { round: 'half-up' })).toBe(-101n);
    expect(parseMoney('999.995', { round: 'half-up' })).toBe(100000n);
    expect(parseMoney('-0.001', { round: 'half-up' })).toBe(0n);
  });
});

describe('writing amounts', () => {
  it.each([
    [123456n, '1234.56', '1,234.56', '$1,234.56'],
    [-839n, '-8.39', '-8.39', '-$8.39'],
    [5n, '0.05', '0.05', '$0.05'],
    [-5n, '-0.05', '-0.05', '-$0.05'],
    [0n, '0.00', '0.00', '$0.00'],
    [100000000000000n, '1000000000000.00', '1,000,000,000,000.00', '$1,000,000,000,000.00'],
    [-99999999999999n, '-999999999999.99', '-999,999,999,999.99', '-$999,999,999,999.99'],
    [
      123456789012345678901n,
      '1234567890123456789.01',
      '1,234,567,890,123,456,789.01',
      '$1,234,567,890,123,456,789.01',
    ],
  ])('%s cents', (cents, decimal, plain, currency) => {
    const m = money(cents);
    expect(toDecimalString(m)).toBe(decimal);
    expect(formatMoney(m)).toBe(plain);
    expect(formatMoney(m, { currency: true })).toBe(currency);
    expect(parseMoney(decimal)).toBe(cents);
  });

  it('takes only whole cents', () => {
    expect(money(12)).toBe(12n);
    expect(() => money(1.5)).toThrow(MoneyError);
    expect(() => money(2 ** 60)).toThrow(MoneyError);
  });
});

describe('sums', () => {
  it('0.10 + 0.20 is 0.30 exactly (as a float it is 0.30000000000000004)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toDecimalString(add(parseMoney('0.10'), parseMoney('0.20')))).toBe('0.30');
    expect(add(parseMoney(0.1), parseMoney(0.2))).toBe(parseMoney('0.3'));
  });

  it('a sum of 100,000 random amounts equals the BigInt sum of their cents', () => {
    const rnd = generator(42);
    const texts: string[] = [];
    for (let n = 0; n < 100_000; n++) {
      const cents = Math.floor(rnd() * 10_000_000_000) - 2_000_000_000;
      const abs = Math.abs(cents);
      texts.push(`${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`);
    }
    const oracle = texts.reduce((total, t) => total + centsOf(t), 0n);
    expect(sum(texts.map((t) => parseMoney(t)))).toBe(oracle);
    // The float sum of the same figures is off by now; that is why amounts are not numbers.
    const float = texts.reduce((total, t) => total + Number(t), 0);
    expect(Math.round(float * 100)).not.toBe(Number(oracle));
  });

  it('subtracts, multiplies by counts and compares', () => {
    expect(sub(money(100), money(250))).toBe(-150n);
    expect(times(parseMoney('19.99'), 12)).toBe(23988n);
    expect(() => times(money(1), 1.5)).toThrow(MoneyError);
    expect(compare(money(1), money(2))).toBe(-1);
    expect(compare(money(2), money(2))).toBe(0);
    expect(compare(money(-1), money(-2))).toBe(1);
  });
});

describe('rates and averages', () => {
  it('rounds exactly half a cent up (away from zero) or to even, as asked', () => {
    // 0.25 × 0.10 = 0.025: half a cent
    expect(mulRate(parseMoney('0.10'), '0.25', 'half-up')).toBe(3n);
    expect(mulRate(parseMoney('0.10'), '0.25', 'half-even')).toBe(2n);
    expect(mulRate(parseMoney('-0.10'), '0.25', 'half-up')).toBe(-3n);
    expect(mulRate(parseMoney('-0.10'), '0.25', 'half-even')).toBe(-2n);
    // 0.35 × 0.10 = 0.035: the even cent is above
    expect(mulRate(parseMoney('0.10'), '0.35', 'half-even')).toBe(4n);
    // not a tie: both rules agree
    expect(mulRate(parseMoney('0.10'), '0.26', 'half-even')).toBe(3n);
    expect(mulRate(parseMoney('0.10'), '0.24', 'half-up')).toBe(2n);
  });

  it('takes percentages and basis points exactly', () => {
    expect(mulRate(parseMoney('173.73'), percent(80), 'half-up')).toBe(13898n); // 138.984
    expect(mulRate(parseMoney('100000'), basisPoints('2.0'), 'half-up')).toBe(2000n);
    expect(mulRate(parseMoney('12345.67'), basisPoints('2.5'), 'half-up')).toBe(309n); // 3.0864175
    expect(mulRate(parseMoney('1000.00'), '0.0725', 'half-even')).toBe(7250n);
  });

  it('averages with one rounding, half-up', () => {
    expect(divRound(parseMoney('1.01'), 2)).toBe(51n); // 0.505
    expect(divRound(parseMoney('1.01'), 2, 'half-even')).toBe(50n);
    expect(divRound(parseMoney('-1.01'), 2)).toBe(-51n);
    expect(divRound(parseMoney('10.00'), 3)).toBe(333n);
    expect(divRound(parseMoney('20.00'), 3)).toBe(667n);
    expect(() => divRound(money(1), 0)).toThrow(MoneyError);
  });
});

describe('allocate', () => {
  it('splits into parts that add back to the whole, the left-over cents to the largest remainders', () => {
    expect(allocate(money(100), [1, 1, 1])).toEqual([34n, 33n, 33n]);
    expect(allocate(money(-100), [1, 1, 1])).toEqual([-34n, -33n, -33n]);
    expect(allocate(parseMoney('143.99'), ['0.8', '0.2'])).toEqual([11519n, 2880n]);
    expect(allocate(money(5), [0, 1])).toEqual([0n, 5n]);
    expect(allocate(money(1), [1, 2])).toEqual([0n, 1n]);
  });

  it('refuses negative weights and weights that add up to zero', () => {
    expect(() => allocate(money(100), [1, -1])).toThrow(MoneyError);
    expect(() => allocate(money(100), [0, 0])).toThrow(MoneyError);
  });

  it('always adds back to the whole, each part within a cent of its exact share', () => {
    const rnd = generator(7);
    for (let n = 0; n < 2_000; n++) {
      const whole = money(Math.floor(rnd() * 2_000_000_000) - 1_000_000_000);
      const weights = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () =>
        (Math.floor(rnd() * 10_000) / 10_000).toFixed(4),
      );
      if (weights.every((w) => Number(w) === 0)) continue;
      const parts = allocate(whole, weights);
      expect(sum(parts)).toBe(whole);
      const totalWeight = weights.reduce((a, w) => a.plus(Fraction.of(w)), Fraction.of(0));
      parts.forEach((part, i) => {
        const exact = Fraction.of(whole)
          .times(Fraction.of(weights[i] ?? '0'))
          .div(totalWeight);
        const gap = Fraction.of(part).minus(exact);
        expect(gap.compare(Fraction.of(1)) < 0 && gap.compare(Fraction.of(-1)) > 0).toBe(true);
      });
    }
  });
});

describe('Fraction', () => {
  it('keeps thirds exact and rounds them once', () => {
    const third = Fraction.of(5).div(12); // the yearly fee of 5.00 a month
    expect(third.times(12).compare(Fraction.of(5))).toBe(0);
    expect(third.toMoney('half-up')).toBe(42n);
    expect(third.toFixed(4, 'half-up')).toBe('0.4167');
    expect(third.negated().toFixed(1, 'half-up')).toBe('-0.4');
    expect(Fraction.of('12.45').toFixed(1, 'half-up')).toBe('12.5');
    expect(Fraction.of('12.45').toFixed(1, 'half-even')).toBe('12.4');
    expect(Fraction.of(7).toFixed(0, 'half-up')).toBe('7');
  });

  it('reads decimals exactly where floats do not', () => {
    const f = Fraction.of('0.1').plus(Fraction.of('0.2'));
    expect(f.compare(Fraction.of('0.3'))).toBe(0);
    expect(Fraction.of(0.065).times(1000).compare(Fraction.of(65))).toBe(0);
  });

  it('reads an amount as dollars with ofMoney', () => {
    const m: Money = parseMoney('-8.39');
    expect(Fraction.ofMoney(m).compare(Fraction.of('-8.39'))).toBe(0);
  });
});
