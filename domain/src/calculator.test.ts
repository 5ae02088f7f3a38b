import { describe, expect, it } from 'vitest';
import {
  CALCULATOR_DEFAULTS,
  type CalculatorInputs,
  calculate,
  decimalsOf,
  withBank,
  withProfile,
} from './calculator';
import { Fraction } from './money';

/** An exact term against its decimal, or against a fraction where the decimal does not end. */
const is = (value: Fraction, want: string | Fraction) =>
  expect(
    value.compare(typeof want === 'string' ? Fraction.of(want) : want),
    `${value.num}/${value.den}`,
  ).toBe(0);

const d = CALCULATOR_DEFAULTS;

describe('calculator defaults (spec §9)', () => {
  it('bank CBCAL sets next-day funding to 5.00, the other bank to 2.0', () => {
    expect(withBank(d, 'ESQUIRE').ndfValue).toBe(2.0);
    expect(withBank(withBank(d, 'ESQUIRE'), 'CBCAL').ndfValue).toBe(5.0);
  });

  it('PayLo sets the ISO program fee to 2.50 and the merchant’s to 0; other profiles 6.00 each', () => {
    expect(withProfile(d, 'TRADITIONAL')).toMatchObject({ programIso: 6.0, programMerchant: 6.0 });
    expect(withProfile(d, 'HIGHRISK')).toMatchObject({ programIso: 6.0, programMerchant: 6.0 });
    expect(withProfile(withProfile(d, 'TRADITIONAL'), 'PAYLO')).toMatchObject({
      programIso: 2.5,
      programMerchant: 0,
    });
  });

  it('decimals: the ISC split none, the micros fee three, others two', () => {
    expect(decimalsOf('isc')).toBe(0);
    expect(decimalsOf('micros')).toBe(3);
    expect(decimalsOf('grossVolume')).toBe(2);
  });
});

describe('calculate: worked examples (docs/calculator.md)', () => {
  it('example 1: Traditional on CBCAL, next-day funding, not liable', () => {
    const inputs: CalculatorInputs = {
      ...withProfile(withBank(d, 'CBCAL'), 'TRADITIONAL'),
      grossVolume: 100_000,
      income: 250,
      expense: 40,
      interchangeIncome: 1800,
      interchangeExpense: 1780,
      cardBrandIncome: 150,
      cardBrandExpense: 130,
      authorizations: 1200,
      numberPinDebit: 100,
      numberBatches: 30,
      avsCount: 200,
      chargebackCount: 2,
      chargebackIncome: 30,
      nextDayFunding: true,
    };
    const r = calculate(inputs);
    is(r.terms.interchangeMargin, '20');
    is(r.terms.cardBrandMargin, '20');
    is(r.terms.perItemCosts, '58.9');
    is(r.terms.basisPointCosts, '20');
    // 280 − (40 + 2 + 2 + 2.95 + 5 ÷ 12)
    is(r.terms.feeTerms, Fraction.of('280').minus(Fraction.of('46.95')).minus(Fraction.of(5).div(12)));
    is(r.terms.liability, '-20');
    is(r.terms.netIncome, new Fraction(2606n, 15n)); // 173.7333…
    is(r.terms.base, '0');
    is(r.terms.nextDayFunding, '5');
    expect(r.monthly).toEqual({ total: 17873n, iso: 14399n, house: 3474n });
    expect(r.yearly).toEqual({ total: 214476n, iso: 172788n, house: 41688n });
  });

  it('example 2: PayLo on Esquire, liable, non-compliant, ISC 70', () => {
    const inputs: CalculatorInputs = {
      ...withProfile(withBank(d, 'ESQUIRE'), 'PAYLO'),
      isc: 70,
      grossVolume: 50_000,
      ndf: 50_000,
      interchangeIncome: 900,
      interchangeExpense: 900,
      cardBrandIncome: 70,
      cardBrandExpense: 65,
      income: 400,
      authorizations: 800,
      chargebackCount: 1,
      retrievalCount: 2,
      liable: true,
      pprogram: 1,
      nextDayFunding: true,
    };
    const r = calculate(inputs);
    is(r.terms.liability, '-75');
    is(r.terms.base, '12.5');
    is(r.terms.nextDayFunding, '10');
    is(r.terms.netIncome, new Fraction(8419n, 30n)); // 280.6333…
    expect(r.monthly).toEqual({ total: 30313n, iso: 21894n, house: 8419n });
    expect(r.yearly).toEqual({ total: 363756n, iso: 262728n, house: 101028n });
  });

  it('example 3: the defaults alone cost the fixed monthly fees', () => {
    const r = calculate(d);
    expect(r.monthly).toEqual({ total: -987n, iso: -839n, house: -148n });
  });

  it('next-day funding counts only when switched on; liability fees only when liable', () => {
    const base = { ...d, grossVolume: 10_000, chargebackCount: 3 };
    is(calculate({ ...base, nextDayFunding: false }).terms.nextDayFunding, '0');
    is(calculate({ ...base, nextDayFunding: true }).terms.nextDayFunding, '5');
    is(calculate({ ...base, liable: false }).terms.liability, '-2');
    is(calculate({ ...base, liable: true }).terms.liability, '-75');
  });

  it('ISO share + house share = total, monthly and yearly, for any inputs', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let n = 0; n < 500; n++) {
      const inputs: CalculatorInputs = {
        ...d,
        grossVolume: Math.round(rnd() * 1e8) / 100,
        income: Math.round(rnd() * 1e6) / 100,
        interchangeIncome: Math.round(rnd() * 1e6) / 100,
        interchangeExpense: Math.round(rnd() * 1e6) / 100,
        authorizations: Math.floor(rnd() * 10000),
        isc: Math.floor(rnd() * 101),
        liable: rnd() < 0.5,
        nextDayFunding: rnd() < 0.5,
        bank: rnd() < 0.5 ? 'CBCAL' : 'ESQUIRE',
        ndf: Math.round(rnd() * 1e7) / 100,
      };
      const r = calculate(inputs);
      expect(r.monthly.iso + r.monthly.house).toBe(r.monthly.total);
      expect(r.yearly.iso + r.yearly.house).toBe(r.yearly.total);
      expect(r.yearly.total).toBe(12n * r.monthly.total);
    }
  });

  it('rounds a half cent up however large the month (the float model rounded this one down)', () => {
    // N = 38,809,149.08 + 265.37 − 6.95 = 38,809,407.50; ISO = 25% × N − 2.50 (PayLo) = 9,702,349.375
    const r = calculate({ ...d, income: 38_809_149.08, interchangeIncome: 265.37, annual: 0, isc: 25 });
    is(r.terms.netIncome, '38809407.5');
    expect(r.monthly).toEqual({ total: 3_880_940_500n, iso: 970_234_938n, house: 2_910_705_562n });
  });
});
