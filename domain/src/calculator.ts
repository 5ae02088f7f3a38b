/**
 * The sales calculator's pricing model (spec document 1 §2, §3, §4, §5, §9), a pure function.
 * docs/calculator.md explains every input, its unit and how it enters the result.
 *
 * Monthly net income N = interchange margin + card-brand margin − per-item costs − basis-point costs
 *                        + fee terms + liability
 * ISO share   = ISC % × N + base (the TSYS special terms) + next-day funding
 * House share = the remainder, (100 − ISC) % × N
 * Yearly = 12 × monthly. Every term is exact (docs/money.md); the total and the ISO share are rounded to
 * cents once, half-up, and the house share is the exact remainder, so ISO + house = total.
 */

import { basisPoints, Fraction, type Money, percent, sub, times } from './money';

export type CalculatorBank = 'CBCAL' | 'ESQUIRE';
export type CalculatorProfile = 'PAYLO' | 'TRADITIONAL' | 'HIGHRISK';
export type CalculatorProcessor = 'TSYS' | 'FIRSTDATA' | 'PPS';

export interface CalculatorInputs {
  // Merchant details: the merchant's month.
  /** Card volume, $ a month. */
  grossVolume: number;
  /** Discount (markup) income billed above pass-through, $ a month. */
  income: number;
  /** Other processing expense of the account, $ a month. */
  expense: number;
  interchangeIncome: number;
  interchangeExpense: number;
  cardBrandIncome: number;
  cardBrandExpense: number;
  /** Fees billed to the merchant for risk items, $ a month. */
  liabilityIncome: number;
  chargebackCount: number;
  chargebackIncome: number;
  achRejectCount: number;
  achRejectIncome: number;
  retrievalCount: number;
  retrievalIncome: number;
  reversalCount: number;
  reversalIncome: number;
  authorizations: number;
  numberPinDebit: number;
  numberBatches: number;
  /** EBT transactions. */
  ebt: number;
  /** Voice authorizations. */
  voicec: number;
  avsCount: number;
  /** Monthly-minimum fee billed to the merchant, $. */
  monthlymin: number;
  /** Micros (POS) transactions. */
  mic: number;
  /** Amex volume, $ (priced on First Data and PPS only). */
  amex: number;
  /** PCI non-compliant accounts (0 or 1 for one merchant). */
  pprogram: number;
  /** Settlements (PPS only). */
  settlement: number;
  /** Volume on PPS's BIN, $ (PPS only). */
  pbin: number;
  /** Volume funded next day, $. */
  ndf: number;

  // General pricing: the house's costs to the ISO (its Schedule A), and the split.
  /** ISO split, percent (whole number). */
  isc: number;
  /** Per authorization, $. */
  acs: number;
  /** BIN sponsorship, basis points of volume. */
  bin: number;
  /** Liability, basis points of volume, when the ISO is not liable. */
  liability: number;
  /** Per chargeback, ACH reject, retrieval and reversal, $, when the ISO is liable. */
  cbliability: number;
  arliability: number;
  rtliability: number;
  rvliability: number;
  /** $ a month each. */
  account: number;
  statement: number;
  /** Per item, $. */
  pin: number;
  batch: number;
  ebtA: number;
  voice: number;
  avs: number;
  /** $ a year. */
  annual: number;
  /** Other monthly cost, $. */
  monthly: number;
  /** One-time fees, shown but not part of a month. */
  cancellation: number;
  welcome: number;
  /** Government compliance, $ a month. */
  govt: number;
  /** Per Micros transaction, $ (fixed). */
  micros: number;

  // Choices
  processor: CalculatorProcessor;
  bank: CalculatorBank;
  profile: CalculatorProfile;
  liable: boolean;
  nextDayFunding: boolean;
  /** PCI program fees (set by the profile) and TSYS non-compliance fees, $ a month. */
  programIso: number;
  programMerchant: number;
  nonComplianceMerchant: number;
  nonComplianceIso: number;
  /** Next-day funding term (set by the bank): $ flat for CBCAL, basis points of `ndf` for ESQUIRE. */
  ndfValue: number;
}

/** Spec document 1 §9 "Calculator defaults". */
export const CALCULATOR_DEFAULTS: CalculatorInputs = {
  grossVolume: 0,
  income: 0,
  expense: 0,
  interchangeIncome: 0,
  interchangeExpense: 0,
  cardBrandIncome: 0,
  cardBrandExpense: 0,
  liabilityIncome: 0,
  chargebackCount: 0,
  chargebackIncome: 0,
  achRejectCount: 0,
  achRejectIncome: 0,
  retrievalCount: 0,
  retrievalIncome: 0,
  reversalCount: 0,
  reversalIncome: 0,
  authorizations: 0,
  numberPinDebit: 0,
  numberBatches: 0,
  ebt: 0,
  voicec: 0,
  avsCount: 0,
  monthlymin: 0,
  mic: 0,
  amex: 0,
  pprogram: 0,
  settlement: 0,
  pbin: 0,
  ndf: 0,
  isc: 80,
  acs: 0.04,
  bin: 2.0,
  liability: 2.0,
  cbliability: 25,
  arliability: 25,
  rtliability: 25,
  rvliability: 25,
  account: 2.0,
  statement: 2.0,
  pin: 0.06,
  batch: 0.03,
  ebtA: 0.06,
  voice: 0.98,
  avs: 0.02,
  annual: 5.0,
  monthly: 0,
  cancellation: 495.0,
  welcome: 2.95,
  govt: 2.95,
  micros: 0.065,
  processor: 'TSYS',
  bank: 'CBCAL',
  profile: 'PAYLO',
  liable: false,
  nextDayFunding: false,
  programIso: 2.5,
  programMerchant: 0,
  nonComplianceMerchant: 29.95,
  nonComplianceIso: 14.95,
  ndfValue: 5.0,
};

/** Other processors' terms (spec §9), shown on their (disabled) tabs. */
export const FIRST_DATA_TERMS = {
  programMerchant: 99.0,
  programIso: 30.0,
  nonComplianceMerchant: 19.95,
  nonComplianceIso: 9.95,
  buypassStatement: 0.25,
  buypassPreAuth: 0.01,
  buypassFullDownload: 1.0,
  buypassPartialDownload: 0.5,
  buypassTable: 0.5,
  amexSponsorBps: 15.0,
} as const;
export const PPS_TERMS = {
  programMerchant: 99.0,
  programIso: 30.0,
  nonComplianceMerchant: 24.95,
  nonComplianceIso: 14.95,
  missingOriginalsPerDay: 1.0,
  helpDesk: 3.0,
  afterHours: 5.75,
  amexBps: 20.0,
  payloProgram: 9.95,
  settlement: 0.05,
  binBps: 5.0,
} as const;

/** §4: the bank sets the next-day-funding term, the profile the PCI program fees. */
export function withBank(inputs: CalculatorInputs, bank: CalculatorBank): CalculatorInputs {
  return { ...inputs, bank, ndfValue: bank === 'CBCAL' ? 5.0 : 2.0 };
}
export function withProfile(inputs: CalculatorInputs, profile: CalculatorProfile): CalculatorInputs {
  return profile === 'PAYLO'
    ? { ...inputs, profile, programIso: 2.5, programMerchant: 0 }
    : { ...inputs, profile, programIso: 6.0, programMerchant: 6.0 };
}

/** Decimals of each input (spec §5): the ISC split none, the micros fee three, the rest two. */
export function decimalsOf(field: keyof CalculatorInputs): number {
  if (field === 'isc') return 0;
  if (field === 'micros') return 3;
  return 2;
}

/** Each term in dollars, exact (a Fraction), for the breakdown. */
export interface CalculatorTerms {
  interchangeMargin: Fraction;
  cardBrandMargin: Fraction;
  perItemCosts: Fraction;
  basisPointCosts: Fraction;
  feeTerms: Fraction;
  liability: Fraction;
  netIncome: Fraction;
  /** The TSYS special terms, paid to the ISO whole. */
  base: Fraction;
  nextDayFunding: Fraction;
}

export interface CalculatorResult {
  monthly: { total: Money; iso: Money; house: Money };
  yearly: { total: Money; iso: Money; house: Money };
  terms: CalculatorTerms;
}

/**
 * An input as the decimal it was typed as (docs/money.md: a number is read by its shortest decimal), so
 * 0.065 × 1,000 is exactly 65.00 and nothing is rounded before the result.
 */
const exact = (n: number) => Fraction.of(n);
const total = (terms: Fraction[]) => terms.reduce((a, t) => a.plus(t), Fraction.of(0));

export function calculate(i: CalculatorInputs): CalculatorResult {
  const interchangeMargin = exact(i.interchangeIncome).minus(exact(i.interchangeExpense));
  const cardBrandMargin = exact(i.cardBrandIncome).minus(exact(i.cardBrandExpense));
  const perItemCosts = total([
    exact(i.authorizations).times(exact(i.acs)),
    exact(i.numberPinDebit).times(exact(i.pin)),
    exact(i.numberBatches).times(exact(i.batch)),
    exact(i.ebt).times(exact(i.ebtA)),
    exact(i.voicec).times(exact(i.voice)),
    exact(i.avsCount).times(exact(i.avs)),
    exact(i.mic).times(exact(i.micros)),
  ]);
  const basisPointCosts = exact(i.grossVolume).times(basisPoints(i.bin));
  const feeIncome = total(
    [
      i.income,
      i.liabilityIncome,
      i.chargebackIncome,
      i.achRejectIncome,
      i.retrievalIncome,
      i.reversalIncome,
      i.monthlymin,
    ].map(exact),
  );
  const feeCosts = total([
    ...[i.expense, i.account, i.statement, i.monthly, i.govt].map(exact),
    exact(i.annual).div(12),
  ]);
  const feeTerms = feeIncome.minus(feeCosts);
  const liability = (
    i.liable
      ? total([
          exact(i.chargebackCount).times(exact(i.cbliability)),
          exact(i.achRejectCount).times(exact(i.arliability)),
          exact(i.retrievalCount).times(exact(i.rtliability)),
          exact(i.reversalCount).times(exact(i.rvliability)),
        ])
      : exact(i.grossVolume).times(basisPoints(i.liability))
  ).negated();
  const netIncome = total([
    interchangeMargin,
    cardBrandMargin,
    perItemCosts.negated(),
    basisPointCosts.negated(),
    feeTerms,
    liability,
  ]);
  const base = exact(i.programMerchant)
    .minus(exact(i.programIso))
    .plus(exact(i.pprogram).times(exact(i.nonComplianceMerchant).minus(exact(i.nonComplianceIso))));
  const nextDayFunding = !i.nextDayFunding
    ? Fraction.of(0)
    : i.bank === 'CBCAL'
      ? exact(i.ndfValue)
      : exact(i.ndf).times(basisPoints(i.ndfValue));

  const toIso = base.plus(nextDayFunding);
  const monthlyTotal = netIncome.plus(toIso).toMoney('half-up');
  const iso = netIncome.times(percent(i.isc)).plus(toIso).toMoney('half-up');
  const monthly = { total: monthlyTotal, iso, house: sub(monthlyTotal, iso) };
  return {
    monthly,
    yearly: { total: times(monthly.total, 12), iso: times(monthly.iso, 12), house: times(monthly.house, 12) },
    terms: {
      interchangeMargin,
      cardBrandMargin,
      perItemCosts,
      basisPointCosts,
      feeTerms,
      liability,
      netIncome,
      base,
      nextDayFunding,
    },
  };
}
