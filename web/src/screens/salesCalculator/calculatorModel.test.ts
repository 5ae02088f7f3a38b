import { CALCULATOR_DEFAULTS, formatMoney, withBank, withProfile } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  initialTexts,
  merchantEntered,
  NEGATIVE_REFUSED,
  parseDecimal,
  parseField,
  type Texts,
  WORKED_EXAMPLE,
} from './calculatorModel';

describe('typed figures', () => {
  it('reads decimals up to the field’s places, with thousands separators, blank as 0', () => {
    expect(parseDecimal('1,250.50', 2)).toEqual({ ok: true, value: 1250.5 });
    expect(parseDecimal(' 100000 ', 2)).toEqual({ ok: true, value: 100000 });
    expect(parseDecimal('.5', 2)).toEqual({ ok: true, value: 0.5 });
    expect(parseDecimal('3.', 2)).toEqual({ ok: true, value: 3 });
    expect(parseDecimal('', 2)).toEqual({ ok: true, value: 0 });
  });

  it('refuses text that is not a plain number', () => {
    for (const text of ['abc', '1.2.3', '-5', '1e3', '$10', '12 34'])
      expect(parseDecimal(text, 2).ok, text).toBe(false);
  });

  it('gives the ISC split no decimals, the micros fee three and the rest two', () => {
    expect(parseField('isc', '80')).toEqual({ ok: true, value: 80 });
    expect(parseField('isc', '80.5')).toMatchObject({ ok: false, error: 'Enter a whole number' });
    expect(parseField('isc', '101')).toMatchObject({ ok: false });
    expect(parseField('micros', '0.065')).toEqual({ ok: true, value: 0.065 });
    expect(parseField('micros', '0.0655').ok).toBe(false);
    expect(parseField('acs', '0.045')).toMatchObject({ ok: false, error: 'Use at most 2 decimals' });
  });
});

describe('the calculator screen’s figures', () => {
  it('open on the defaults (worked example 3)', () => {
    const { result, errors } = evaluate(CALCULATOR_DEFAULTS, initialTexts());
    expect(errors).toEqual({});
    expect(formatMoney(result.monthly.total)).toBe('-9.87');
    expect(formatMoney(result.monthly.iso)).toBe('-8.39');
    expect(formatMoney(result.monthly.house)).toBe('-1.48');
  });

  const example1: Texts = {
    ...initialTexts(),
    grossVolume: '100,000',
    income: '250',
    expense: '40',
    interchangeIncome: '1800',
    interchangeExpense: '1780',
    cardBrandIncome: '150',
    cardBrandExpense: '130',
    authorizations: '1200',
    numberPinDebit: '100',
    numberBatches: '30',
    avsCount: '200',
    chargebackCount: '2',
    chargebackIncome: '30',
  };
  const traditionalCbcal = {
    ...withProfile(withBank(CALCULATOR_DEFAULTS, 'CBCAL'), 'TRADITIONAL'),
    nextDayFunding: true,
  };

  it('price worked example 1 from typed text', () => {
    const { result } = evaluate(traditionalCbcal, example1);
    expect(formatMoney(result.monthly.total)).toBe('178.73');
    expect(formatMoney(result.monthly.iso)).toBe('143.99');
    expect(formatMoney(result.monthly.house)).toBe('34.74');
    expect(formatMoney(result.yearly.total)).toBe('2,144.76');
  });

  it('count an unreadable field as 0 and name it, without failing the totals', () => {
    const { result, errors } = evaluate(traditionalCbcal, { ...example1, income: '25o' });
    expect(Object.keys(errors)).toEqual(['income']);
    expect(formatMoney(result.monthly.total)).toBe('-71.27');
  });
});

describe('an empty calculator', () => {
  it('waits for the merchant’s figures: the pricing defaults alone do not count as entered', () => {
    expect(merchantEntered(initialTexts())).toBe(false);
    expect(merchantEntered({ ...initialTexts(), grossVolume: ' ' })).toBe(false);
    expect(merchantEntered({ ...initialTexts(), grossVolume: '100' })).toBe(true);
  });

  it('offers worked example 1 of docs/calculator.md, which prices as the guide says', () => {
    const { result } = evaluate(WORKED_EXAMPLE.choices(CALCULATOR_DEFAULTS), {
      ...initialTexts(),
      ...WORKED_EXAMPLE.texts,
    });
    expect(
      [result.monthly.total, result.monthly.iso, result.monthly.house].map((m) => formatMoney(m)),
    ).toEqual(['178.73', '143.99', '34.74']);
  });

  it('refuses a negative figure and says why', () => {
    expect(parseField('expense', '-40')).toEqual({ ok: false, error: NEGATIVE_REFUSED });
    expect(parseField('authorizations', '-3')).toEqual({ ok: false, error: 'A count cannot be negative' });
  });
});
