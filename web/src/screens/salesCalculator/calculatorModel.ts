import {
  CALCULATOR_DEFAULTS,
  type CalculatorInputs,
  type CalculatorResult,
  calculate,
  decimalsOf,
  withBank,
  withProfile,
} from '@paydesk/domain';

/** The inputs typed as free text (the rest are choices or fixed terms). */
export type NumericField = {
  [K in keyof CalculatorInputs]: CalculatorInputs[K] extends number ? K : never;
}[keyof CalculatorInputs];

export type Unit = 'money' | 'count' | 'bps' | 'percent';

export interface FieldSpec {
  field: NumericField;
  label: string;
  unit: Unit;
  /** What the figure is, when the label alone leaves it open. */
  hint?: string;
}

export interface FieldGroup {
  title: string;
  fields: readonly FieldSpec[];
}

/** Merchant Details: the merchant's month (docs/calculator.md, Inputs). */
export const MERCHANT_GROUPS: readonly FieldGroup[] = [
  {
    title: 'Volume and income',
    fields: [
      { field: 'grossVolume', label: 'Gross volume', unit: 'money', hint: 'Card volume a month' },
      { field: 'income', label: 'Discount income', unit: 'money', hint: 'Markup billed above pass-through' },
      { field: 'expense', label: 'Other expense', unit: 'money', hint: 'Other processing expense' },
      { field: 'monthlymin', label: 'Monthly minimum', unit: 'money', hint: 'Billed to the merchant' },
    ],
  },
  {
    title: 'Interchange and card brand',
    fields: [
      { field: 'interchangeIncome', label: 'Interchange income', unit: 'money' },
      { field: 'interchangeExpense', label: 'Interchange expense', unit: 'money' },
      { field: 'cardBrandIncome', label: 'Card brand income', unit: 'money' },
      { field: 'cardBrandExpense', label: 'Card brand expense', unit: 'money' },
    ],
  },
  {
    title: 'Risk items',
    fields: [
      { field: 'liabilityIncome', label: 'Liability income', unit: 'money', hint: 'Risk fees billed' },
      { field: 'chargebackCount', label: 'Chargebacks', unit: 'count' },
      { field: 'chargebackIncome', label: 'Chargeback income', unit: 'money' },
      { field: 'achRejectCount', label: 'ACH rejects', unit: 'count' },
      { field: 'achRejectIncome', label: 'ACH reject income', unit: 'money' },
      { field: 'retrievalCount', label: 'Retrievals', unit: 'count' },
      { field: 'retrievalIncome', label: 'Retrieval income', unit: 'money' },
      { field: 'reversalCount', label: 'Reversals', unit: 'count' },
      { field: 'reversalIncome', label: 'Reversal income', unit: 'money' },
    ],
  },
  {
    title: 'Transactions',
    fields: [
      { field: 'authorizations', label: 'Authorizations', unit: 'count' },
      { field: 'numberPinDebit', label: 'PIN debit transactions', unit: 'count' },
      { field: 'numberBatches', label: 'Batches', unit: 'count' },
      { field: 'ebt', label: 'EBT transactions', unit: 'count' },
      { field: 'voicec', label: 'Voice authorizations', unit: 'count' },
      { field: 'avsCount', label: 'AVS checks', unit: 'count' },
      { field: 'mic', label: 'Micros transactions', unit: 'count' },
    ],
  },
  {
    title: 'Compliance and funding',
    fields: [
      {
        field: 'pprogram',
        label: 'PCI non-compliant',
        unit: 'count',
        hint: 'Accounts: 0 or 1 for one merchant',
      },
      { field: 'ndf', label: 'Next-day funded volume', unit: 'money', hint: 'Priced on ESQUIRE' },
    ],
  },
];

/** Priced by First Data and PPS only, whose tabs are not open yet: shown, not editable. */
export const OTHER_PROCESSOR_FIELDS: readonly FieldSpec[] = [
  { field: 'amex', label: 'Amex volume', unit: 'money' },
  { field: 'settlement', label: 'Settlements', unit: 'count' },
  { field: 'pbin', label: 'PPS BIN volume', unit: 'money' },
];

/** General pricing: the house's costs to the ISO and the split. */
export const GENERAL_FIELDS: readonly FieldSpec[] = [
  { field: 'isc', label: 'ISO split (ISC)', unit: 'percent', hint: 'The ISO’s share of net income' },
  { field: 'acs', label: 'Authorization (ACS)', unit: 'money', hint: 'Per authorization' },
  { field: 'bin', label: 'BIN sponsorship', unit: 'bps', hint: 'Of gross volume' },
  { field: 'liability', label: 'Liability', unit: 'bps', hint: 'Of gross volume, when not liable' },
  { field: 'pin', label: 'PIN debit', unit: 'money', hint: 'Per transaction' },
  { field: 'batch', label: 'Batch', unit: 'money', hint: 'Per batch' },
  { field: 'ebtA', label: 'EBT', unit: 'money', hint: 'Per transaction' },
  { field: 'voice', label: 'Voice authorization', unit: 'money', hint: 'Per authorization' },
  { field: 'avs', label: 'AVS', unit: 'money', hint: 'Per check' },
  { field: 'account', label: 'Account fee', unit: 'money', hint: 'A month' },
  { field: 'statement', label: 'Statement fee', unit: 'money', hint: 'A month' },
  { field: 'monthly', label: 'Monthly fee', unit: 'money', hint: 'Other cost a month' },
  { field: 'govt', label: 'Government compliance', unit: 'money', hint: 'A month' },
  { field: 'annual', label: 'Annual fee', unit: 'money', hint: 'A year, counted ÷ 12' },
  { field: 'cancellation', label: 'Cancellation fee', unit: 'money', hint: 'Once, not in the month' },
  { field: 'welcome', label: 'Welcome kit', unit: 'money', hint: 'Once, not in the month' },
];

/** The four per-item liability fees, shown when the ISO is liable. */
export const LIABILITY_FIELDS: readonly FieldSpec[] = [
  { field: 'cbliability', label: 'Chargeback liability', unit: 'money', hint: 'Per chargeback' },
  { field: 'arliability', label: 'ACH reject liability', unit: 'money', hint: 'Per ACH reject' },
  { field: 'rtliability', label: 'Retrieval liability', unit: 'money', hint: 'Per retrieval' },
  { field: 'rvliability', label: 'Reversal liability', unit: 'money', hint: 'Per reversal' },
];

const EDITABLE: readonly FieldSpec[] = [
  ...MERCHANT_GROUPS.flatMap((g) => g.fields),
  ...GENERAL_FIELDS,
  ...LIABILITY_FIELDS,
];

export type Texts = Partial<Record<NumericField, string>>;

export type Parsed = { ok: true; value: number } | { ok: false; error: string };

/**
 * Why a negative figure is refused. Every input is an amount billed, a cost or a count, and the model
 * subtracts costs and expenses itself (docs/calculator.md), so a minus sign would count a cost twice or
 * turn it into income; a credit or a refund is entered as the income it reduces, made smaller.
 */
export const NEGATIVE_REFUSED =
  'Enter it as a positive amount: the calculator subtracts costs and expenses itself';
const NEGATIVE_COUNT = 'A count cannot be negative';

/**
 * A typed figure as a number with at most `decimals` decimals (spec §5: the ISC split none, the micros
 * fee three, the rest two). Thousands separators are allowed; blank is 0; negatives are refused, saying why.
 */
export function parseDecimal(text: string, decimals: number, unit: Unit = 'money'): Parsed {
  const clean = text.trim().replaceAll(',', '');
  if (clean === '') return { ok: true, value: 0 };
  if (/^-\s*(\d+\.?\d*|\.\d+)$/.test(clean))
    return { ok: false, error: unit === 'count' ? NEGATIVE_COUNT : NEGATIVE_REFUSED };
  if (!/^(\d+\.?\d*|\.\d+)$/.test(clean))
    return { ok: false, error: decimals === 0 ? 'Enter a whole number' : 'Enter a number, e.g. 1250.50' };
  const fraction = clean.split('.')[1] ?? '';
  if (fraction.length > decimals)
    return {
      ok: false,
      error: decimals === 0 ? 'Enter a whole number' : `Use at most ${decimals} decimals`,
    };
  return { ok: true, value: Number(clean) };
}

/** A field's own rule on top of the decimals. */
export function parseField(field: NumericField, text: string): Parsed {
  const unit = EDITABLE.find((spec) => spec.field === field)?.unit;
  const parsed = parseDecimal(text, decimalsOf(field), unit);
  if (parsed.ok && field === 'isc' && parsed.value > 100) return { ok: false, error: 'At most 100%' };
  return parsed;
}

/** Basis points read with one decimal, as the pricing schedules write them (2.0 bps). */
export function formatFixed(value: number, unit: Unit, decimals: number): string {
  return unit === 'bps' ? value.toFixed(Math.min(1, decimals)) : value.toFixed(decimals);
}

/** The text fields as they open: the merchant's figures blank, the pricing at its defaults. */
export function initialTexts(): Texts {
  const texts: Texts = {};
  for (const spec of [...GENERAL_FIELDS, ...LIABILITY_FIELDS])
    texts[spec.field] = formatFixed(CALCULATOR_DEFAULTS[spec.field], spec.unit, decimalsOf(spec.field));
  return texts;
}

const MERCHANT_FIELDS = MERCHANT_GROUPS.flatMap((g) => g.fields.map((f) => f.field));

/** True once any of the merchant's figures is typed: before that the result is only the house's fees. */
export function merchantEntered(texts: Texts): boolean {
  return MERCHANT_FIELDS.some((field) => (texts[field] ?? '').trim() !== '');
}

/**
 * Worked example 1 of docs/calculator.md (Traditional on CBCAL, next-day funding on, not liable, ISC 80),
 * offered on an empty calculator so a user sees a real merchant's month before typing their own.
 */
export const WORKED_EXAMPLE = {
  title: 'Worked example 1: a Traditional merchant on CBCAL with next-day funding',
  choices: (choices: CalculatorInputs): CalculatorInputs => ({
    ...withProfile(withBank(choices, 'CBCAL'), 'TRADITIONAL'),
    liable: false,
    nextDayFunding: true,
  }),
  texts: {
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
  } satisfies Texts,
};

export interface Evaluated {
  inputs: CalculatorInputs;
  result: CalculatorResult;
  /** Fields whose text cannot be read; they count as 0 until fixed. */
  errors: Partial<Record<NumericField, string>>;
}

/** The choices and fixed terms with every readable typed figure laid over them, and the result. */
export function evaluate(choices: CalculatorInputs, texts: Texts): Evaluated {
  const inputs: CalculatorInputs = { ...choices };
  const errors: Evaluated['errors'] = {};
  for (const { field } of EDITABLE) {
    const parsed = parseField(field, texts[field] ?? '');
    if (parsed.ok) inputs[field] = parsed.value;
    else {
      inputs[field] = 0;
      errors[field] = parsed.error;
    }
  }
  return { inputs, result: calculate(inputs), errors };
}

export type View = 'iso' | 'house';

/** The house's name in the view radio and the split. */
export const HOUSE = 'PayDesk';
/** The house's share is not a rate of its own but what the ISO's share leaves. */
export const HOUSE_REMAINDER = `${HOUSE} (the remainder)`;
