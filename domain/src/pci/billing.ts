import { type Money, mulRate, parseMoney, percent, sub } from '../money';
import {
  operatorTypeFor,
  PCI_FILTERS,
  PCI_FLAGS,
  PCI_FREQUENCIES,
  PCI_MESSAGES,
  PCI_OPERATORS,
  PCI_VALUE_SEPARATOR,
  type PciBillingFlag,
  type PciDefaultFeeFlag,
  type PciFilterField,
  type PciFlag,
  type PciFrequency,
} from './codes';

/**
 * The PCI billing engine: which billing type and fees a merchant has, what a month bills it, and what the ISO
 * earns on it. Pure: the server loads the facts and the configuration, calls these, and stores what they
 * answer. docs/pci.md explains every rule; billing.test.ts checks each against hand-computed cases.
 * Money is in cents (Money); days are YYYY-MM-DD.
 */

/** The merchant facts exceptions test (PCI_FILTERS' fields) and the engine needs. */
export interface PciMerchantFacts {
  mid: string;
  iso_name: string;
  group_id: string;
  merchant_profile: string;
  mcc: string;
  state: string | null;
  sponsor_bank: string;
  open_date: string;
  pci_compliant: boolean;
  /** The annual PCI due date; an annual fee is billed in its month (or the opening month without one). */
  due_date: string | null;
}

export interface ExceptionFilter {
  filterId: number;
  operatorId: number;
  /** The filter_value split on |, trimmed. */
  values: readonly string[];
}

export interface FeeGroup {
  flag: PciFlag;
  amount: Money;
  isoCost: Money;
  /** Every filter must match (a group is an AND of its filters). */
  filters: readonly ExceptionFilter[];
}

export interface FrequencyGroup {
  frequency: PciFrequency;
  filters: readonly ExceptionFilter[];
}

export interface Fee {
  amount: Money;
  isoCost: Money;
}

export interface PciConfig {
  defaultFrequency: PciFrequency;
  defaultFees: Readonly<Record<PciDefaultFeeFlag, Fee>>;
  /** In group order: the first matching group wins. */
  feeGroups: readonly FeeGroup[];
  frequencyGroups: readonly FrequencyGroup[];
}

// ---------------------------------------------------------------- filters

const filterById = new Map<number, (typeof PCI_FILTERS)[number]>(PCI_FILTERS.map((f) => [f.id, f]));
const operatorById = new Map<number, (typeof PCI_OPERATORS)[number]>(PCI_OPERATORS.map((o) => [o.id, o]));

const fold = (s: string) => s.trim().toLowerCase();

function factOf(merchant: PciMerchantFacts, field: PciFilterField): string | null {
  return merchant[field];
}

/**
 * Whether one filter matches a merchant. In / Not In compare case-insensitively with any of the values (a
 * merchant without the field is In nothing and Not In everything); Before is strictly earlier than the date,
 * On or After the date or later, Between from|to with both ends included (a merchant without the date matches
 * no date operator). An unknown filter or operator matches nothing: validation keeps them out of the data.
 */
export function filterMatches(merchant: PciMerchantFacts, filter: ExceptionFilter): boolean {
  const def = filterById.get(filter.filterId);
  const op = operatorById.get(filter.operatorId);
  if (!def || !op || op.operator_type !== operatorTypeFor(def.field_type)) return false;
  const fact = factOf(merchant, def.field);
  switch (op.alias) {
    case 'In':
      return fact !== null && filter.values.some((v) => fold(v) === fold(fact));
    case 'Not In':
      return fact === null || !filter.values.some((v) => fold(v) === fold(fact));
    case 'Before':
      return fact !== null && fact < (filter.values[0] ?? '');
    case 'On or After':
      return fact !== null && fact >= (filter.values[0] ?? '');
    case 'Between':
      return fact !== null && fact >= (filter.values[0] ?? '') && fact <= (filter.values[1] ?? '');
  }
}

const groupMatches = (merchant: PciMerchantFacts, filters: readonly ExceptionFilter[]) =>
  filters.length > 0 && filters.every((f) => filterMatches(merchant, f));

// ---------------------------------------------------------------- billing type and fees

/** The merchant's billing type: the first matching frequency exception's, else the default. */
export function billingTypeOf(merchant: PciMerchantFacts, config: PciConfig): PciFrequency {
  return (
    config.frequencyGroups.find((g) => groupMatches(merchant, g.filters))?.frequency ??
    config.defaultFrequency
  );
}

export interface MerchantFees {
  billingType: PciFrequency;
  /**
   * The program fee a compliant merchant pays on its billing type: the first matching fee exception of that
   * flag (or SMF), else the default fee of the flag. Zero when an SMF exception matched first on a monthly type.
   */
  program: Fee;
  /** True when an SMF exception skipped the monthly program fee. */
  skipped: boolean;
  /** The non-compliance fee: the first matching NCF exception, else the default NCF fee. */
  nonCompliance: Fee;
}

const ZERO_FEE: Fee = { amount: 0n as Money, isoCost: 0n as Money };

export function feesOf(merchant: PciMerchantFacts, config: PciConfig): MerchantFees {
  const billingType = billingTypeOf(merchant, config);
  const programGroup = config.feeGroups.find(
    (g) =>
      (g.flag === billingType || (g.flag === 'SMF' && billingType === 'MTF')) &&
      groupMatches(merchant, g.filters),
  );
  const skipped = programGroup?.flag === 'SMF';
  const program = skipped
    ? ZERO_FEE
    : programGroup
      ? { amount: programGroup.amount, isoCost: programGroup.isoCost }
      : config.defaultFees[billingType];
  const ncfGroup = config.feeGroups.find((g) => g.flag === 'NCF' && groupMatches(merchant, g.filters));
  const nonCompliance = ncfGroup
    ? { amount: ncfGroup.amount, isoCost: ncfGroup.isoCost }
    : config.defaultFees.NCF;
  return { billingType, program, skipped, nonCompliance };
}

export interface MonthBill {
  flag: PciBillingFlag;
  amount: Money;
  isoCost: Money;
}

/**
 * What a month bills a merchant, or null for nothing:
 * - non-compliant: the non-compliance fee (NCF), every month, whatever its billing type;
 * - compliant, monthly (MTF): the program fee, unless an SMF exception skips it;
 * - compliant, annual (ANF): the program fee in the month of its due date (the opening month without one).
 * A zero amount bills nothing (a zero debit is not an entry). `month` is YYYY-MM or YYYY-MM-DD.
 */
export function billFor(merchant: PciMerchantFacts, config: PciConfig, month: string): MonthBill | null {
  const fees = feesOf(merchant, config);
  let bill: MonthBill | null;
  if (!merchant.pci_compliant) bill = { flag: 'NCF', ...fees.nonCompliance };
  else if (fees.billingType === 'MTF') bill = fees.skipped ? null : { flag: 'MTF', ...fees.program };
  else {
    const anniversary = (merchant.due_date ?? merchant.open_date).slice(5, 7);
    bill = anniversary === month.slice(5, 7) ? { flag: 'ANF', ...fees.program } : null;
  }
  return bill && bill.amount > 0n ? bill : null;
}

// ---------------------------------------------------------------- commissions

export interface RevShare {
  iso_name: string;
  /** Percent as an exact decimal, e.g. "25.00". */
  rev_share: string;
  effective_date: string;
}

/** The ISO's rev share in effect on a day: the latest with an effective date on or before it, else null. */
export function revShareOn(shares: readonly RevShare[], iso: string, day: string): RevShare | null {
  let best: RevShare | null = null;
  for (const s of shares)
    if (s.iso_name === iso && s.effective_date <= day && (!best || s.effective_date > best.effective_date))
      best = s;
  return best;
}

/**
 * What the ISO is due on a billed amount: billed × rev share % (rounded half up to the cent, once) minus the
 * ISO cost. Negative when the cost is more than the share: the ISO owes the difference.
 */
export function amountDue(billed: Money, revSharePercent: string, isoCost: Money): Money {
  return sub(mulRate(billed, percent(revSharePercent), 'half-up'), isoCost);
}

// ---------------------------------------------------------------- exception validation

type Cell = string | number | null | undefined;

const isEmpty = (v: Cell) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
/** Frequency rows also count 0 as missing (spec §5). */
const isEmptyOrZero = (v: Cell) => isEmpty(v) || v === 0 || (typeof v === 'string' && v.trim() === '0');

export type Validated<T> = { ok: true; groups: T[] } | { ok: false; message: string };

const wholeId = (v: Cell) => {
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  return Number.isSafeInteger(n) ? n : null;
};
const isRealDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** The values of a filter_value (split on |, trimmed, empties dropped). */
export const filterValues = (raw: string) =>
  raw
    .split(PCI_VALUE_SEPARATOR)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** One filter of an exception row, checked: a known filter, an operator of its type, values that fit. */
function checkFilter(
  row: { filter_id?: Cell; filter_operator_id?: Cell; filter_value?: Cell },
  where: string,
): ExceptionFilter | string {
  const filterId = wholeId(row.filter_id);
  const def = filterId === null ? undefined : filterById.get(filterId);
  if (!def) return `${where}: unknown filter ${String(row.filter_id)}`;
  const operatorId = wholeId(row.filter_operator_id);
  const op = operatorId === null ? undefined : operatorById.get(operatorId);
  if (!op) return `${where}: unknown operator ${String(row.filter_operator_id)}`;
  if (op.operator_type !== operatorTypeFor(def.field_type))
    return `${where}: ${op.alias} does not apply to ${def.alias}`;
  const values = filterValues(String(row.filter_value));
  if (values.length === 0) return PCI_MESSAGES.emptyFields;
  if (values.some((v) => v.length > 100)) return `${where}: a value is too long`;
  if (op.operator_type === 'date') {
    const bad = values.find((v) => !isRealDate(v));
    if (bad !== undefined) return `${where}: ${bad} is not a date (YYYY-MM-DD)`;
    const wanted = op.alias === 'Between' ? 2 : 1;
    if (values.length !== wanted)
      return `${where}: ${op.alias} takes ${wanted === 2 ? 'two dates (from|to)' : 'one date'}`;
    if (wanted === 2 && (values[0] ?? '') > (values[1] ?? ''))
      return `${where}: the start date must not be after the end date`;
  }
  return { filterId: def.id, operatorId: op.id, values };
}

function amountOf(v: Cell, label: string, where: string): Money | string {
  try {
    const m = parseMoney(typeof v === 'number' ? v : String(v).trim());
    if (m < 0n) return `${where}: ${label} cannot be negative`;
    if (m > 10_000_000n) return `${where}: ${label} is too large`;
    return m;
  } catch {
    return `${where}: ${label} must be a number with at most 2 decimals`;
  }
}

export interface FeeExceptionCells {
  fee_flag?: Cell;
  amount?: Cell;
  iso_cost?: Cell;
  filter_id?: Cell;
  filter_value?: Cell;
  filter_operator_id?: Cell;
}

/**
 * The fee exceptions as saved (InsertFee): any empty field of any row refuses the whole save with the spec's
 * message; then each row must name a known flag, filter and operator of the filter's type, with amounts of at
 * most 2 decimals. A group's fee is its first row's; every row of a group must carry the same fee. Empty groups
 * are dropped.
 */
export function validateFeeExceptions(
  groups: readonly (readonly FeeExceptionCells[])[],
): Validated<FeeGroup> {
  const fields = [
    'fee_flag',
    'amount',
    'iso_cost',
    'filter_id',
    'filter_value',
    'filter_operator_id',
  ] as const;
  if (groups.some((g) => g.some((row) => fields.some((f) => isEmpty(row[f])))))
    return { ok: false, message: PCI_MESSAGES.emptyFields };
  const out: FeeGroup[] = [];
  for (const [gi, group] of groups.filter((g) => g.length > 0).entries()) {
    const where = `Exception ${gi + 1}`;
    let fee: Omit<FeeGroup, 'filters'> | null = null;
    const filters: ExceptionFilter[] = [];
    for (const row of group) {
      const flag = String(row.fee_flag).trim();
      if (!(PCI_FLAGS as readonly string[]).includes(flag))
        return { ok: false, message: `${where}: the fee flag must be one of ${PCI_FLAGS.join(', ')}` };
      const amount = amountOf(row.amount, 'the amount', where);
      if (typeof amount === 'string') return { ok: false, message: amount };
      const isoCost = amountOf(row.iso_cost, 'the ISO cost', where);
      if (typeof isoCost === 'string') return { ok: false, message: isoCost };
      const rowFee = { flag: flag as PciFlag, amount, isoCost };
      if (fee && (fee.flag !== rowFee.flag || fee.amount !== rowFee.amount || fee.isoCost !== rowFee.isoCost))
        return { ok: false, message: `${where}: every filter of a group has the same fee` };
      fee = rowFee;
      const filter = checkFilter(row, where);
      if (typeof filter === 'string') return { ok: false, message: filter };
      filters.push(filter);
    }
    if (fee) out.push({ ...fee, filters });
  }
  return { ok: true, groups: out };
}

export interface FrequencyExceptionCells {
  frequency?: Cell;
  filter_id?: Cell;
  filter_value?: Cell;
  filter_operator_id?: Cell;
}

/** The billing-type exceptions as saved (InsertFrequency): as fee exceptions, where 0 also counts as empty. */
export function validateFrequencyExceptions(
  groups: readonly (readonly FrequencyExceptionCells[])[],
): Validated<FrequencyGroup> {
  const fields = ['frequency', 'filter_id', 'filter_value', 'filter_operator_id'] as const;
  if (groups.some((g) => g.some((row) => fields.some((f) => isEmptyOrZero(row[f])))))
    return { ok: false, message: PCI_MESSAGES.emptyFields };
  const out: FrequencyGroup[] = [];
  for (const [gi, group] of groups.filter((g) => g.length > 0).entries()) {
    const where = `Exception ${gi + 1}`;
    let frequency: PciFrequency | null = null;
    const filters: ExceptionFilter[] = [];
    for (const row of group) {
      const f = String(row.frequency).trim();
      if (!(PCI_FREQUENCIES as readonly string[]).includes(f))
        return {
          ok: false,
          message: `${where}: the billing type must be one of ${PCI_FREQUENCIES.join(', ')}`,
        };
      if (frequency && frequency !== f)
        return { ok: false, message: `${where}: every filter of a group has the same billing type` };
      frequency = f as PciFrequency;
      const filter = checkFilter(row, where);
      if (typeof filter === 'string') return { ok: false, message: filter };
      filters.push(filter);
    }
    if (frequency) out.push({ frequency, filters });
  }
  return { ok: true, groups: out };
}
