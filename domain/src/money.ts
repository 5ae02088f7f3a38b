/**
 * Exact money (docs/money.md). An amount is a whole number of cents held as a `bigint`, so sums never drift
 * and there is no ceiling short of any amount the business will see. Figures that carry fractions of a
 * cent on their way to a result (per-item fees of 0.065, basis points, a yearly fee ÷ 12, a percentage
 * split) are `Fraction`s: exact ratios of two integers, rounded to cents once, at the end.
 */

declare const centsBrand: unique symbol;
/** A whole number of cents. Build one with `parseMoney`, `money` or the arithmetic below, never a cast. */
export type Money = bigint & { readonly [centsBrand]: true };

/**
 * How a figure with a remainder of exactly half a cent is rounded. `half-up` sends the half away from zero
 * (1.005 → 1.01, −1.005 → −1.01), as PostgreSQL's round() on numeric does, so a figure rounded here and
 * one rounded in SQL agree. `half-even` sends it to the even cent (1.005 → 1.00, 1.015 → 1.02): no upward
 * bias over many roundings, the rule for splitting and accruing.
 */
export type Rounding = 'half-up' | 'half-even';

/** A value that is not an amount (text that is not a decimal number, NaN, Infinity, too many decimals). */
export class MoneyError extends RangeError {
  override name = 'MoneyError';
}

/** Whole cents: an integer `bigint` or a safe integer `number`. */
export function money(cents: bigint | number): Money {
  if (typeof cents === 'number' && !Number.isSafeInteger(cents))
    throw new MoneyError(`Not a whole number of cents: ${cents}`);
  return BigInt(cents) as Money;
}

// ---------------------------------------------------------------- reading decimals

/** An exact decimal as sign, digits and the number of those digits after the point. */
interface DecimalParts {
  negative: boolean;
  digits: bigint;
  places: number;
}

const DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?$/;

function decimalParts(text: string): DecimalParts {
  const match = DECIMAL.exec(text.trim());
  const [, sign = '', whole = '', fraction = ''] = match ?? [];
  if (!match || whole.length + fraction.length === 0) throw new MoneyError(`Not a decimal number: "${text}"`);
  return { negative: sign === '-', digits: BigInt(whole + fraction || '0'), places: fraction.length };
}

/**
 * A JS number as the decimal it was written as: the shortest text that reads back as the same number
 * (`0.1` is 0.1, not the binary 0.1000000000000000055…). Exponent forms are shifted into plain digits.
 */
function numberParts(n: number): DecimalParts {
  if (!Number.isFinite(n)) throw new MoneyError(`Not a finite number: ${n}`);
  const [mantissa = '', exponentText = '0'] = String(n).split('e');
  const parts = decimalParts(mantissa);
  const exponent = Number(exponentText);
  if (exponent >= 0) return { ...parts, digits: parts.digits * 10n ** BigInt(exponent) };
  return { ...parts, places: parts.places - exponent };
}

const partsOf = (value: string | number) =>
  typeof value === 'number' ? numberParts(value) : decimalParts(value);

export interface ParseOptions {
  /** Round a value with more than two decimals instead of refusing it. */
  round?: Rounding;
}

/**
 * An amount from an exact decimal string ('1234.56', '-8.39', '.5', '007.10'; the API's `numeric` values)
 * or from a number typed by a person. No thousands separators, currency signs or exponents in text.
 * More than two decimals is refused unless `round` is given; zeros beyond the cents ('1.500') are exact
 * and accepted.
 */
export function parseMoney(value: string | number, options: ParseOptions = {}): Money {
  const { negative, digits, places } = partsOf(value);
  const exact = new Fraction(negative ? -digits : digits, 10n ** BigInt(places));
  const cents = exact.times(100);
  if (cents.den !== 1n && !options.round)
    throw new MoneyError(`More than two decimals: ${typeof value === 'number' ? value : `"${value}"`}`);
  return cents.round(options.round ?? 'half-up');
}

// ---------------------------------------------------------------- writing

/** '1234.56', '-0.05': the plain decimal the API and spreadsheets carry. */
export function toDecimalString(m: Money): string {
  const negative = m < 0n;
  const digits = (negative ? -m : m).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** '1,234.56' or, with `currency`, '$1,234.56'; negatives as '-1,234.56' and '-$1,234.56'. */
export function formatMoney(m: Money, options: { currency?: boolean } = {}): string {
  const negative = m < 0n;
  const digits = (negative ? -m : m).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${options.currency ? '$' : ''}${whole}.${digits.slice(-2)}`;
}

// ---------------------------------------------------------------- arithmetic

export const add = (a: Money, b: Money) => (a + b) as Money;
export const sub = (a: Money, b: Money) => (a - b) as Money;

export function sum(amounts: Iterable<Money>): Money {
  let total = 0n;
  for (const m of amounts) total += m;
  return total as Money;
}

/** An amount times a whole count (12 months, 3 chargebacks). */
export function times(m: Money, count: bigint | number): Money {
  if (typeof count === 'number' && !Number.isSafeInteger(count))
    throw new MoneyError(`Not a whole count: ${count}`);
  return (m * BigInt(count)) as Money;
}

/**
 * An amount times a rate, rounded once to cents. The rate is an exact decimal multiplier ('0.8' for 80%,
 * '0.0002' for 2 basis points) or a Fraction (`percent('80')`, `basisPoints('2.0')`).
 */
export function mulRate(m: Money, rate: string | Fraction, rounding: Rounding): Money {
  return Fraction.of(m)
    .times(typeof rate === 'string' ? Fraction.of(rate) : rate)
    .round(rounding);
}

/** An amount shared by `n` (an average), rounded once to cents; half a cent goes by `rounding`. */
export function divRound(m: Money, n: bigint | number, rounding: Rounding = 'half-up'): Money {
  return Fraction.of(m).div(n).round(rounding);
}

/**
 * Splits an amount into parts proportional to `weights` that add back to it exactly: each part gets the
 * whole cents of its share, and the cents left over go one each to the largest remainders (the earlier
 * part on a tie). Weights are non-negative numbers or decimal strings ('0.7000' rev shares), not all zero.
 */
export function allocate(m: Money, weights: ReadonlyArray<bigint | number | string>): Money[] {
  const shares = weights.map((w) => Fraction.of(w));
  if (shares.some((s) => s.num < 0n)) throw new MoneyError('A weight is negative');
  const total = shares.reduce((a, s) => a.plus(s), Fraction.of(0));
  if (total.num === 0n) throw new MoneyError('The weights add up to zero');
  const magnitude = m < 0n ? -m : m;
  const exact = shares.map((s) => Fraction.of(magnitude).times(s).div(total));
  const parts = exact.map((f) => f.num / f.den);
  let left = magnitude - parts.reduce((a, p) => a + p, 0n);
  const byRemainder = exact
    .map((f, index) => ({ index, remainder: new Fraction(f.num % f.den, f.den) }))
    .sort((a, b) => b.remainder.compare(a.remainder) || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts.map((p) => (m < 0n ? -p : p) as Money);
}

export const compare = (a: Money, b: Money): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);

// ---------------------------------------------------------------- exact fractions

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

const toBigInt = (n: bigint | number) => {
  if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new MoneyError(`Not a whole number: ${n}`);
  return BigInt(n);
};

/**
 * An exact ratio of two integers: the sub-cent figures between inputs and a rounded result. Its unit is
 * whatever the caller reads into it: `Fraction.of('0.065')` is dollars, `Fraction.of(m)` of an amount is
 * cents (`ofMoney` reads an amount as dollars). Immutable; in lowest terms with a positive denominator.
 */
export class Fraction {
  readonly num: bigint;
  readonly den: bigint;

  constructor(num: bigint, den: bigint = 1n) {
    if (den === 0n) throw new MoneyError('Division by zero');
    const sign = den < 0n ? -1n : 1n;
    const divisor = gcd(num, den);
    this.num = (sign * num) / divisor;
    this.den = (sign * den) / divisor;
  }

  /** A decimal string or number read exactly, or an integer (cents stay cents: see `ofMoney`). */
  static of(value: string | number | bigint): Fraction {
    if (typeof value === 'bigint') return new Fraction(value);
    const { negative, digits, places } = partsOf(value);
    return new Fraction(negative ? -digits : digits, 10n ** BigInt(places));
  }

  /** An amount in cents as dollars. */
  static ofMoney(m: Money): Fraction {
    return new Fraction(m, 100n);
  }

  plus(other: Fraction): Fraction {
    return new Fraction(this.num * other.den + other.num * this.den, this.den * other.den);
  }

  minus(other: Fraction): Fraction {
    return this.plus(other.negated());
  }

  negated(): Fraction {
    return new Fraction(-this.num, this.den);
  }

  times(other: Fraction | bigint | number): Fraction {
    const o = other instanceof Fraction ? other : new Fraction(toBigInt(other));
    return new Fraction(this.num * o.num, this.den * o.den);
  }

  div(other: Fraction | bigint | number): Fraction {
    const o = other instanceof Fraction ? other : new Fraction(toBigInt(other));
    return new Fraction(this.num * o.den, this.den * o.num);
  }

  compare(other: Fraction): -1 | 0 | 1 {
    const d = this.num * other.den - other.num * this.den;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  }

  /** The nearest integer; exactly half goes by `rounding`. */
  roundToInteger(rounding: Rounding): bigint {
    const q = this.num / this.den; // truncated toward zero
    const r = this.num % this.den; // same sign as num
    const twice = (r < 0n ? -r : r) * 2n;
    const away = this.num < 0n ? q - 1n : q + 1n;
    if (twice < this.den) return q;
    if (twice > this.den || rounding === 'half-up') return away;
    return q % 2n === 0n ? q : away;
  }

  /** This value taken as cents, rounded to whole cents. */
  round(rounding: Rounding): Money {
    return this.roundToInteger(rounding) as Money;
  }

  /** This value in dollars, rounded to cents. */
  toMoney(rounding: Rounding): Money {
    return this.times(100).round(rounding);
  }

  /** The decimal with `places` decimals, rounded: '12.5' for 12.46 at one place. */
  toFixed(places: number, rounding: Rounding): string {
    const scaled = this.times(10n ** BigInt(places)).roundToInteger(rounding);
    const negative = scaled < 0n;
    const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
    const whole = digits.slice(0, digits.length - places);
    return `${negative ? '-' : ''}${whole}${places > 0 ? `.${digits.slice(-places)}` : ''}`;
  }
}

/** A percentage as a multiplier: percent('80') is 0.8. */
export const percent = (p: string | number) => Fraction.of(p).div(100);
/** Basis points as a multiplier: basisPoints('2.0') is 0.0002. */
export const basisPoints = (bps: string | number) => Fraction.of(bps).div(10_000);
