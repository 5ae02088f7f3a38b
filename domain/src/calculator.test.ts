import { describe, expect, it } from 'vitest';
import {
  CALCULATOR_DEFAULTS,
  type CalculatorInputs,
  calculate,
  decimalsOf,
  formatCents,
  withBank,
  withProfile,
} from './calculator';

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
    expect(r.terms.interchangeMargin).toBeCloseTo(20, 9);
    expect(r.terms.cardBrandMargin).toBeCloseTo(20, 9);
    expect(r.terms.perItemCosts).toBeCloseTo(58.9, 9);
    expect(r.terms.basisPointCosts).toBeCloseTo(20, 9);
    expect(r.terms.feeTerms).toBeCloseTo(280 - 47.366666667, 6);
    expect(r.terms.liability).toBeCloseTo(-20, 9);
    expect(r.terms.netIncome).toBeCloseTo(173.733333333, 6);
    expect(r.terms.base).toBe(0);
    expect(r.terms.nextDayFunding).toBe(5);
    expect(r.monthly).toEqual({ total: 17873, iso: 14399, house: 3474 });
    expect(r.yearly).toEqual({ total: 214476, iso: 172788, house: 41688 });
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
    expect(r.terms.liability).toBe(-75);
    expect(r.terms.base).toBeCloseTo(12.5, 9);
    expect(r.terms.nextDayFunding).toBeCloseTo(10, 9);
    expect(r.terms.netIncome).toBeCloseTo(280.633333333, 6);
    expect(r.monthly).toEqual({ total: 30313, iso: 21894, house: 8419 });
    expect(r.yearly).toEqual({ total: 363756, iso: 262728, house: 101028 });
  });

  it('example 3: the defaults alone cost the fixed monthly fees', () => {
    const r = calculate(d);
    expect(r.monthly).toEqual({ total: -987, iso: -839, house: -148 });
  });

  it('next-day funding counts only when switched on; liability fees only when liable', () => {
    const base = { ...d, grossVolume: 10_000, chargebackCount: 3 };
    expect(calculate({ ...base, nextDayFunding: false }).terms.nextDayFunding).toBe(0);
    expect(calculate({ ...base, nextDayFunding: true }).terms.nextDayFunding).toBe(5);
    expect(calculate({ ...base, liable: false }).terms.liability).toBeCloseTo(-2, 9);
    expect(calculate({ ...base, liable: true }).terms.liability).toBe(-75);
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
      expect(r.yearly.total).toBe(12 * r.monthly.total);
    }
  });

  it('formats cents as dollars with two decimals', () => {
    expect(formatCents(17873)).toBe('178.73');
    expect(formatCents(214476)).toBe('2,144.76');
    expect(formatCents(-148)).toBe('-1.48');
    expect(formatCents(5)).toBe('0.05');
  });
});
