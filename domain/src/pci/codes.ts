/**
 * The PCI module's codes (spec document 3 §3, §4, §5, §9). What each one means for billing is in docs/pci.md;
 * the engine that applies them is domain/src/pci/billing.ts.
 */

/**
 * Billing flags. MTF and ANF are billing types (how often the program fee is billed); NCF is the monthly
 * non-compliance fee; SMF (Skip Monthly Fee) is only a fee-exception choice: matching merchants are not billed
 * the monthly program fee.
 */
export const PCI_FLAGS = ['MTF', 'ANF', 'NCF', 'SMF'] as const;
export type PciFlag = (typeof PCI_FLAGS)[number];
export const PCI_FLAG_DESCRIPTIONS: Record<PciFlag, string> = {
  MTF: 'Monthly Fee',
  ANF: 'Annual Fee',
  NCF: 'Non-Compliance Fee',
  SMF: 'Skip Monthly Fee',
};

/** A merchant's billing type: the default frequency or a frequency exception's. */
export const PCI_FREQUENCIES = ['MTF', 'ANF'] as const;
export type PciFrequency = (typeof PCI_FREQUENCIES)[number];
export const PCI_DEFAULT_FREQUENCY: PciFrequency = 'MTF';

/** The flags a default fee is kept for (SMF has no amount). */
export const PCI_DEFAULT_FEE_FLAGS = ['MTF', 'ANF', 'NCF'] as const;
export type PciDefaultFeeFlag = (typeof PCI_DEFAULT_FEE_FLAGS)[number];
/** Spec §4, §9: the default fee form starts at MTF with 0 amounts. */
export const PCI_DEFAULT_FEE_FLAG: PciDefaultFeeFlag = 'MTF';

/** What a billing row bills: a program fee (monthly or annual) or the non-compliance fee. */
export const PCI_BILLING_FLAGS = ['MTF', 'ANF', 'NCF'] as const;
export type PciBillingFlag = (typeof PCI_BILLING_FLAGS)[number];

/** A filter's field type decides its operators (spec §5): list operators for non-date fields. */
export const PCI_FIELD_TYPES = ['text', 'date'] as const;
export type PciFieldType = (typeof PCI_FIELD_TYPES)[number];
export const PCI_OPERATOR_TYPES = ['list', 'date'] as const;
export type PciOperatorType = (typeof PCI_OPERATOR_TYPES)[number];

/**
 * The merchant facts an exception can test. `source_value` and `source_display` are the older system's
 * "table.schema.field" form; the filter-source calls accept exactly these (filterSourceRequest) and nothing else.
 */
export const PCI_FILTERS = [
  {
    id: 1,
    alias: 'ISO',
    field: 'iso_name',
    field_type: 'text',
    source_value: 'partners.public.account_name',
    source_display: 'partners.public.account_name',
  },
  {
    id: 2,
    alias: 'Group ID',
    field: 'group_id',
    field_type: 'text',
    source_value: 'groups.public.group_id',
    source_display: 'groups.public.group_name',
  },
  {
    id: 3,
    alias: 'Merchant Profile',
    field: 'merchant_profile',
    field_type: 'text',
    source_value: 'merchants.public.profile',
    source_display: 'merchants.public.profile',
  },
  {
    id: 4,
    alias: 'MCC',
    field: 'mcc',
    field_type: 'text',
    source_value: 'mcc_codes.public.code',
    source_display: 'mcc_codes.public.description',
  },
  {
    id: 5,
    alias: 'State',
    field: 'state',
    field_type: 'text',
    source_value: 'merchants.public.state',
    source_display: 'merchants.public.state',
  },
  {
    id: 6,
    alias: 'Sponsor Bank',
    field: 'sponsor_bank',
    field_type: 'text',
    source_value: 'merchants.public.sponsor_bank',
    source_display: 'merchants.public.sponsor_bank',
  },
  {
    id: 7,
    alias: 'Date Opened',
    field: 'open_date',
    field_type: 'date',
    source_value: null,
    source_display: null,
  },
] as const satisfies readonly {
  id: number;
  alias: string;
  field: string;
  field_type: PciFieldType;
  source_value: string | null;
  source_display: string | null;
}[];
export type PciFilterDef = (typeof PCI_FILTERS)[number];
export type PciFilterField = PciFilterDef['field'];

/**
 * Operators. List operators take values joined by |; Before and On or After one date; Between two dates
 * (from|to, both included).
 */
export const PCI_OPERATORS = [
  { id: 1, alias: 'In', operator_type: 'list' },
  { id: 2, alias: 'Not In', operator_type: 'list' },
  { id: 3, alias: 'Before', operator_type: 'date' },
  { id: 4, alias: 'On or After', operator_type: 'date' },
  { id: 5, alias: 'Between', operator_type: 'date' },
] as const satisfies readonly { id: number; alias: string; operator_type: PciOperatorType }[];
export type PciOperatorDef = (typeof PCI_OPERATORS)[number];

/** The operator type a filter's field type offers (spec §5). */
export const operatorTypeFor = (fieldType: PciFieldType): PciOperatorType =>
  fieldType === 'date' ? 'date' : 'list';

/** The operators offered for a filter. */
export const operatorsFor = (filterId: number): readonly PciOperatorDef[] => {
  const filter = PCI_FILTERS.find((f) => f.id === filterId);
  if (!filter) return [];
  return PCI_OPERATORS.filter((o) => o.operator_type === operatorTypeFor(filter.field_type));
};

/** Values of an exception's filter_value are joined by this (spec §3). */
export const PCI_VALUE_SEPARATOR = '|';

/**
 * The two filter-source calls' bodies for a filter source, split the way the server's whitelist expects:
 * `table` is the source up to its last dot ("partners.public"), the field is the part after it.
 */
export function filterSourceRequest(filter: Pick<PciFilterDef, 'source_value' | 'source_display'>) {
  if (filter.source_value === null || filter.source_display === null) return null;
  const split = (source: string) => {
    const dot = source.lastIndexOf('.');
    return { table: source.slice(0, dot), field: source.slice(dot + 1) };
  };
  const value = split(filter.source_value);
  const display = split(filter.source_display);
  return {
    displays: { table: value.table, field_value: value.field, field_display: display.field },
    values: { table: value.table, field: value.field },
  };
}

/** Spec §5: the characters the ACH billing file strips from names (every occurrence, replaced by a space). */
export const ACH_STRIPPED_CHARACTERS = ['#', '$', '&', '(', ')', '-', ',', '.', "'"] as const;

/** Billing years start 2022 (spec §9). */
export const PCI_FIRST_BILLING_YEAR = 2022;

/** Spec §5, §8 messages. */
export const PCI_MESSAGES = {
  emptyFields: 'Please either fill up empty fields or remove them!',
  saved: 'Saved successfully',
  defaultFeeFailed: 'ERROR! try again',
  inlineEditFailed: 'Cannot update the database! try again',
  closedToOpen: 'Are you sure you want to change the status from Closed to Open?',
  deleteConfirm: 'Are you sure?',
} as const;
