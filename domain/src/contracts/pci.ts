import { z } from 'zod';
import { endpoint, FILE_ANSWER, messageAnswer, timestamp } from '../endpoint';
import {
  PCI_BILLING_FLAGS,
  PCI_DEFAULT_FEE_FLAGS,
  PCI_FIRST_BILLING_YEAR,
  PCI_FLAGS,
  PCI_FREQUENCIES,
  PCI_OPERATOR_TYPES,
} from '../pci/codes';
import { type ColumnDef, isoDate, type TableDef, tableEndpoints } from '../table';

/**
 * PCI compliance (spec document 3 §2.2, §3, §4, §5, §7, §9): merchants' PCI records, the monthly billing and its
 * ACH debit file, the ISOs' commissions, historic (old) merchants, and the fee and billing-type configuration.
 * Field names are the spec's. How a month is billed is in docs/pci.md (domain/src/pci/billing.ts). The calls
 * under /api/app/pci are PayDesk's own (the four tables and the billing run's report).
 *
 * Who may do what (enforced by the server):
 * - everyone signed in: Merchants, Billing and Commissions, ISO-bound users their own ISO's rows only
 *   (row-level security); GetFlags and GetPartners;
 * - `pci_restricted`: Old Merchants and everything read by the Config tab (fees, frequencies, filters,
 *   operators, filter sources, rev shares), adding and deleting rev shares;
 * - `pci_ach_billing`: GetACHBilling (runs the month's billing);
 * - `pci_fees`: UpdateDefaultFee, InsertFee, UpdateDefaultFrequency, InsertFrequency;
 * - `pci_historic_edit`: UpdateHistoricMerchantStatus; only these users see T/R and DDA unmasked.
 */

export const pciPaths = {
  getMerchants: '/api/pci/GetMerchants',
  getBilling: '/api/pci/GetBilling',
  getAchBilling: '/api/pci/GetACHBilling',
  getCommissions: '/api/pci/GetCommissions',
  getHistoricMerchants: '/api/pci/GetHistoricMerchants',
  updateHistoricMerchantStatus: '/api/pci/UpdateHistoricMerchantStatus',
  getFlags: '/api/pci/GetFlags',
  getDefaultFees: '/api/pci/GetDefaultFees',
  getFees: '/api/pci/GetFees',
  getFilters: '/api/pci/GetFilters',
  getFilterOperators: '/api/pci/GetFilterOperators',
  getDefaultFrequencies: '/api/pci/GetDefaultFrequencies',
  getFrequencies: '/api/pci/GetFrequencies',
  getPciRevShares: '/api/pci/GetPCIRevShares',
  getPartners: '/api/pci/GetPartners',
  updateDefaultFee: '/api/pci/UpdateDefaultFee',
  insertFee: '/api/pci/InsertFee',
  updateDefaultFrequency: '/api/pci/UpdateDefaultFrequency',
  insertFrequency: '/api/pci/InsertFrequency',
  getFilterSourceDisplays: '/api/pci/GetFilterSourceDisplays',
  getFilterSourceValues: '/api/pci/GetFilterSourceValues',
  addRevShare: '/api/pci/AddRevShare',
  deleteRevShare: '/api/pci/DeleteRevShare',
  merchantsQuery: '/api/app/pci/merchants/query',
  merchantsExport: '/api/app/pci/merchants/export',
  billingQuery: '/api/app/pci/billing/query',
  billingExport: '/api/app/pci/billing/export',
  commissionsQuery: '/api/app/pci/commissions/query',
  commissionsExport: '/api/app/pci/commissions/export',
  oldMerchantsQuery: '/api/app/pci/oldMerchants/query',
  oldMerchantsExport: '/api/app/pci/oldMerchants/export',
  billingRun: '/api/app/pci/billingRun',
} as const;

export const PCI_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const PCI_DEFAULT_PAGE_SIZE = 25;
export const PCI_ACH_FILE = 'ACHBilling.txt';
export const PCI_EXPORT_FILES = {
  merchants: { name: 'PCI_Merchants.xlsx', sheet: 'PCI Merchants' },
  billing: { name: 'PCI_Billing.xlsx', sheet: 'PCI Billing' },
  commissions: { name: 'PCI_Commissions.xlsx', sheet: 'PCI Commissions' },
  oldMerchants: { name: 'PCI_Old_Merchants.xlsx', sheet: 'Old Merchants' },
} as const;

/** Compliance as the screen shows it (spec §2.2; the older source's "Complaint" is not kept). */
export const PCI_COMPLIANCE_LABELS = ['Compliant', 'Non-Compliant'] as const;
export type PciComplianceLabel = (typeof PCI_COMPLIANCE_LABELS)[number];
export const complianceLabel = (compliant: boolean): PciComplianceLabel =>
  compliant ? 'Compliant' : 'Non-Compliant';

/** Old merchants' PCI status: '' open (billed), 'C' closed (spec §3, §4). */
export const PCI_MERCHANT_STATUSES = ['', 'C'] as const;
export type PciMerchantStatus = (typeof PCI_MERCHANT_STATUSES)[number];
export const PCI_MERCHANT_STATUS_LABELS: Record<PciMerchantStatus, string> = { '': 'Open', C: 'Closed' };

/** The columns UpdateHistoricMerchantStatus may set. */
export const PCI_HISTORIC_COLUMNS = ['merchant_status', 'aba_number', 'dda_number'] as const;
export type PciHistoricColumn = (typeof PCI_HISTORIC_COLUMNS)[number];

// ---------------------------------------------------------------- tables

const text = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({ id, label, type: 'text', filter: 'text', sortable: true, ...extra }) as const satisfies ColumnDef<Id>;
const day = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({
    id,
    label,
    type: 'date',
    filter: 'dateRange',
    sortable: true,
    ...extra,
  }) as const satisfies ColumnDef<Id>;
const money = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({ id, label, type: 'money', filter: 'range', sortable: true, ...extra }) as const satisfies ColumnDef<Id>;
const select = <Id extends string>(
  id: Id,
  label: string,
  options: readonly string[],
  extra: Partial<ColumnDef<Id>> = {},
) => ({ id, label, type: 'text', filter: 'select', options, sortable: true, ...extra }) as const;
/** Bank numbers are stored encrypted: shown (masked to the last 4 unless the user edits historic merchants), never filtered or sorted. */
const bankNumber = <Id extends string>(id: Id, label: string) =>
  ({ id, label, type: 'text' }) as const satisfies ColumnDef<Id>;

const flagLabels = { MTF: 'MTF', ANF: 'ANF', NCF: 'NCF' };

/** Merchants tab: every merchant open for PCI billing, with the billing type and fees the engine gives it. */
export const pciMerchantsTable = {
  columns: [
    text('mid', 'MID', { pinned: true }),
    text('dba_name', 'DBA', { pinned: true }),
    text('iso_name', 'ISO'),
    text('merchant_profile', 'Profile'),
    day('open_date', 'Date Opened'),
    select('pci_compliant', 'Compliance Status', PCI_COMPLIANCE_LABELS),
    day('achieved_date', 'Date Achieved'),
    day('due_date', 'Due Date'),
    select('billing_type', 'Billing Type', PCI_FREQUENCIES, { optionLabels: flagLabels }),
    money('pci_fee', 'Comp Fee'),
    money('pci_noncomp_fee', 'Non-Comp Fee'),
    bankNumber('tr', 'T/R'),
    bankNumber('dda', 'DDA'),
  ],
  pageSizes: PCI_PAGE_SIZES,
  defaultPageSize: PCI_DEFAULT_PAGE_SIZE,
  defaultSort: [{ id: 'mid', desc: false }],
} as const satisfies TableDef;
export type PciMerchantColumn = (typeof pciMerchantsTable.columns)[number]['id'];

/** Billing tab: the chosen month's billing rows. */
export const pciBillingTable = {
  columns: [
    text('mid', 'MID', { pinned: true }),
    text('dba_name', 'DBA', { pinned: true }),
    text('iso_name', 'ISO'),
    text('merchant_profile', 'Profile'),
    day('open_date', 'Date Opened'),
    select('billing_flag', 'Billing Type', PCI_BILLING_FLAGS, { optionLabels: flagLabels }),
    day('created_date', 'Date Created'),
    day('processed_date', 'Date Processed'),
    money('amount', 'Amount', { total: true }),
  ],
  pageSizes: PCI_PAGE_SIZES,
  defaultPageSize: PCI_DEFAULT_PAGE_SIZE,
  defaultSort: [{ id: 'mid', desc: false }],
} as const satisfies TableDef;
export type PciBillingColumn = (typeof pciBillingTable.columns)[number]['id'];

/** Commissions tab: the chosen month's billing rows with the ISO's share (rows of ISOs with a rev share in effect). */
export const pciCommissionsTable = {
  columns: [
    text('mid', 'MID', { pinned: true }),
    text('dba_name', 'DBA', { pinned: true }),
    text('iso_name', 'ISO'),
    text('merchant_profile', 'Profile'),
    select('billing_flag', 'Billing Type', PCI_BILLING_FLAGS, { optionLabels: flagLabels }),
    day('date_billed', 'Date Billed'),
    {
      id: 'iso_rev_share',
      label: 'Rev Share',
      type: 'decimal',
      sortable: true,
    },
    money('iso_cost', 'ISO Cost', { total: true }),
    money('amount_billed', 'Billed Amount', { total: true }),
    money('amount_due', 'Amount Due', { total: true }),
  ],
  pageSizes: PCI_PAGE_SIZES,
  defaultPageSize: PCI_DEFAULT_PAGE_SIZE,
  defaultSort: [
    { id: 'iso_name', desc: false },
    { id: 'mid', desc: false },
  ],
} as const satisfies TableDef;
export type PciCommissionColumn = (typeof pciCommissionsTable.columns)[number]['id'];

/** Old Merchants tab (pci_restricted): merchants whose account closed, with their PCI status and bank numbers. */
export const pciOldMerchantsTable = {
  columns: [
    text('mid', 'MID', { pinned: true }),
    text('dba_name', 'DBA', { pinned: true }),
    text('iso_name', 'ISO'),
    select('merchant_status', 'Status', PCI_MERCHANT_STATUSES, { optionLabels: PCI_MERCHANT_STATUS_LABELS }),
    bankNumber('aba_number', 'T/R'),
    bankNumber('dda_number', 'DDA'),
  ],
  pageSizes: PCI_PAGE_SIZES,
  defaultPageSize: PCI_DEFAULT_PAGE_SIZE,
  defaultSort: [{ id: 'mid', desc: false }],
} as const satisfies TableDef;
export type PciOldMerchantColumn = (typeof pciOldMerchantsTable.columns)[number]['id'];

// ---------------------------------------------------------------- field schemas

const decimal = z.string().describe('an exact decimal, e.g. "35.00"');
const dayValue = z.string().nullable().describe('YYYY-MM-DD');

function currentYear() {
  return new Date().getUTCFullYear();
}

/** A billing month: year from 2022 to the current year, month 1-12 (the screen's -1, no month, is refused). */
export const pciMonthBody = {
  year: z.coerce
    .number({ error: 'year is a number' })
    .int('year is a whole number')
    .min(PCI_FIRST_BILLING_YEAR, `Billing years start in ${PCI_FIRST_BILLING_YEAR}`)
    .refine((y) => y <= currentYear(), 'That year has not started'),
  month: z.coerce
    .number({ error: 'Choose a month' })
    .int('Choose a month')
    .min(1, 'Choose a month (1-12)')
    .max(12, 'Choose a month (1-12)'),
};
export const pciMonth = z.strictObject(pciMonthBody);
export type PciMonth = z.input<typeof pciMonth>;

/** An amount as typed: a number or numeric text, at least 0, at most 2 decimals. */
const amountInput = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(100_000, `${label} is too large`)
    .refine((n) => Math.round(n * 100) === n * 100, `${label} has at most 2 decimals`);

// ---------------------------------------------------------------- rows of the spec's calls

export const pciMerchant = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  merchant_profile: z.string(),
  open_date: dayValue,
  pci_compliant: z.boolean(),
  achieved_date: dayValue,
  due_date: dayValue,
  billing_type: z.enum(PCI_FREQUENCIES),
  pci_fee: decimal,
  pci_noncomp_fee: decimal,
  /** Masked to the last 4 digits unless the user holds pci_historic_edit. */
  tr: z.string().nullable(),
  dda: z.string().nullable(),
});
export type PciMerchant = z.output<typeof pciMerchant>;

export const pciBillingRow = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  merchant_profile: z.string(),
  open_date: dayValue,
  billing_flag: z.enum(PCI_BILLING_FLAGS),
  created_date: z.string(),
  processed_date: dayValue,
  amount: decimal,
});
export type PciBillingRow = z.output<typeof pciBillingRow>;

export const pciCommissionRow = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  merchant_profile: z.string(),
  billing_flag: z.enum(PCI_BILLING_FLAGS),
  date_billed: z.string(),
  /** Percent, e.g. "25.00". */
  iso_rev_share: z.string(),
  iso_cost: decimal,
  amount_billed: decimal,
  /** amount_billed × iso_rev_share / 100 − iso_cost, rounded half up to the cent (docs/pci.md). */
  amount_due: decimal,
});
export type PciCommissionRow = z.output<typeof pciCommissionRow>;

export const pciHistoricMerchant = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  merchant_status: z.enum(PCI_MERCHANT_STATUSES),
  /** Masked to the last 4 digits unless the user holds pci_historic_edit. */
  aba_number: z.string().nullable(),
  dda_number: z.string().nullable(),
});
export type PciHistoricMerchant = z.output<typeof pciHistoricMerchant>;

export const updateHistoricMerchantBody = z.strictObject({
  mid: z.string().trim().min(1, 'mid is required').max(40, 'mid is too long'),
  column: z.enum(PCI_HISTORIC_COLUMNS, {
    error: `column must be one of: ${PCI_HISTORIC_COLUMNS.join(', ')}`,
  }),
  /**
   * merchant_status: '' (Open) or 'C' (Closed); aba_number: 9 digits with a valid check digit; dda_number: 4-17
   * digits. Checked by the server with those messages.
   */
  value: z.string({ error: 'value is text' }).max(40, 'The value is too long'),
});
export type UpdateHistoricMerchantBody = z.input<typeof updateHistoricMerchantBody>;
export const updateHistoricMerchantAnswer = messageAnswer.extend({ row: pciHistoricMerchant });

export const pciFlag = z.object({ flag: z.enum(PCI_FLAGS), description: z.string() });

export const pciDefaultFee = z.object({
  fee_flag: z.enum(PCI_DEFAULT_FEE_FLAGS),
  amount: decimal,
  iso_cost: decimal,
});
export type PciDefaultFee = z.output<typeof pciDefaultFee>;

/** A fee exception row: one filter of a group; the group's fee (fee_flag, amount, iso_cost) is on each row. */
export const pciFee = z.object({
  id: z.number(),
  fee_flag: z.enum(PCI_FLAGS),
  amount: decimal,
  iso_cost: decimal,
  filter_id: z.number(),
  /** Values joined by |. */
  filter_value: z.string(),
  filter_operator_id: z.number(),
  fee_group: z.number(),
});
export type PciFee = z.output<typeof pciFee>;

export const pciFrequency = z.object({
  id: z.number(),
  frequency: z.enum(PCI_FREQUENCIES),
  filter_id: z.number(),
  filter_value: z.string(),
  filter_operator_id: z.number(),
  frequency_group: z.number(),
});
export type PciFrequencyException = z.output<typeof pciFrequency>;

export const pciFilter = z.object({
  id: z.number(),
  alias: z.string(),
  field_type: z.string(),
  source_value: z.string().nullable(),
  source_display: z.string().nullable(),
});
export const pciFilterOperator = z.object({
  id: z.number(),
  alias: z.string(),
  operator_type: z.enum(PCI_OPERATOR_TYPES),
});

export const pciRevShare = z.object({
  iso_name: z.string(),
  /** Percent, e.g. "25.00". */
  rev_share: z.string(),
  effective_date: z.string(),
});
export type PciRevShare = z.output<typeof pciRevShare>;
export const pciPartner = z.object({ iso_name: z.string() });

// ---------------------------------------------------------------- inputs of the configuration calls

export const updateDefaultFeeBody = z.strictObject({
  flag: z.enum(PCI_DEFAULT_FEE_FLAGS, { error: `flag is one of ${PCI_DEFAULT_FEE_FLAGS.join(', ')}` }),
  amount: amountInput('Amount'),
  iso_cost: amountInput('ISO cost'),
});

/**
 * A cell of an exception row as the editor sends it: anything empty is let through here so the server answers
 * the spec's message ("Please either fill up empty fields or remove them!") rather than a schema error.
 */
const looseCell = z.union([z.string().max(2000, 'A value is too long'), z.number(), z.null()]).optional();

export const feeExceptionInput = z.strictObject({
  id: looseCell,
  fee_flag: looseCell,
  amount: looseCell,
  iso_cost: looseCell,
  filter_id: looseCell,
  filter_value: looseCell,
  filter_operator_id: looseCell,
  /** Ignored: groups are numbered by their place in the list. */
  fee_group: looseCell,
});
export type FeeExceptionInput = z.input<typeof feeExceptionInput>;
/** InsertFee: every fee exception, as a list of groups (each a list of filter rows); replaces the stored ones. */
export const insertFeeBody = z
  .array(z.array(feeExceptionInput).max(50, 'A group has at most 50 filters'))
  .max(200, 'At most 200 exception groups');

export const frequencyExceptionInput = z.strictObject({
  id: looseCell,
  frequency: looseCell,
  filter_id: looseCell,
  filter_value: looseCell,
  filter_operator_id: looseCell,
  frequency_group: looseCell,
});
export type FrequencyExceptionInput = z.input<typeof frequencyExceptionInput>;
export const insertFrequencyBody = z
  .array(z.array(frequencyExceptionInput).max(50, 'A group has at most 50 filters'))
  .max(200, 'At most 200 exception groups');

export const updateDefaultFrequencyBody = z.strictObject({
  flag: z.enum(PCI_FREQUENCIES, { error: `flag is one of ${PCI_FREQUENCIES.join(', ')}` }),
});

const sourceName = z.string().max(200, 'The name is too long');
export const filterSourceDisplaysBody = z.strictObject({
  table: sourceName,
  field_value: sourceName,
  field_display: sourceName,
});
export const filterSourceValuesBody = z.strictObject({ table: sourceName, field: sourceName });
export const filterSourceDisplay = z.object({ value: z.string(), display: z.string() });
export const filterSourceValue = z.object({ value: z.string() });

export const addRevShareBody = z.strictObject({
  iso_name: z.string({ error: 'ISO is required' }).trim().min(1, 'ISO is required').max(200),
  rev_share: z.coerce
    .number({ error: 'Rev Share % must be a number' })
    .min(0, 'Rev Share % cannot be negative')
    .max(100, 'Rev Share % is at most 100')
    .refine((n) => Math.round(n * 100) === n * 100, 'Rev Share % has at most 2 decimals'),
  effective_date: isoDate,
});
/** Deletes the ISO's rev share of that effective date, or every one of the ISO's when no date is given. */
export const deleteRevShareBody = z.strictObject({
  iso_name: z.string({ error: 'ISO is required' }).trim().min(1, 'ISO is required').max(200),
  effective_date: isoDate.optional(),
});

// ---------------------------------------------------------------- the billing run

export const pciSkippedMerchant = z.object({
  mid: z.string(),
  dba_name: z.string(),
  /** Why the merchant was left out of the file (and not billed): a bad or missing routing or DDA number. */
  reason: z.string(),
});
export type PciSkippedMerchant = z.output<typeof pciSkippedMerchant>;

/** A month's billing run as recorded: the file is kept and answered again by a second run. */
export const pciBillingRun = z.object({
  year: z.number(),
  month: z.number(),
  created_at: timestamp,
  created_by: z.string(),
  /** Debit entries in the file (= billing rows written). */
  entries: z.number(),
  /** Sum of the entries, exact decimal. */
  total_debit: decimal,
  /** Merchants due a fee but left out (reported, never sent). */
  skipped: z.array(pciSkippedMerchant),
});
export type PciBillingRun = z.output<typeof pciBillingRun>;
export const billingRunAnswer = z.object({ run: pciBillingRun.nullable() });

// ---------------------------------------------------------------- calls

const monthTable = { year: pciMonthBody.year, month: pciMonthBody.month };

export const pciEndpoints = {
  getMerchants: endpoint({
    method: 'GET',
    path: pciPaths.getMerchants,
    summary: 'Every merchant open for PCI billing: compliance, dates, billing type, fees, masked T/R and DDA',
    output: z.array(pciMerchant),
  }),
  getBilling: endpoint({
    method: 'POST',
    path: pciPaths.getBilling,
    summary: "A month's PCI billing rows",
    input: pciMonth,
    output: z.array(pciBillingRow),
  }),
  getAchBilling: endpoint({
    method: 'POST',
    path: pciPaths.getAchBilling,
    summary:
      "Runs a month's PCI billing (once: a second run answers the same file) and answers the NACHA debit file ACHBilling.txt (pci_ach_billing)",
    input: pciMonth,
    output: FILE_ANSWER,
  }),
  getCommissions: endpoint({
    method: 'POST',
    path: pciPaths.getCommissions,
    summary: "A month's ISO commissions on PCI billing: rev share in effect, ISO cost, billed and due",
    input: pciMonth,
    output: z.array(pciCommissionRow),
  }),
  getHistoricMerchants: endpoint({
    method: 'GET',
    path: pciPaths.getHistoricMerchants,
    summary: 'Merchants whose account closed, with PCI status, T/R and DDA (pci_restricted)',
    output: z.array(pciHistoricMerchant),
  }),
  updateHistoricMerchantStatus: endpoint({
    method: 'POST',
    path: pciPaths.updateHistoricMerchantStatus,
    summary: "Sets an old merchant's PCI status, T/R or DDA (pci_historic_edit); audited",
    input: updateHistoricMerchantBody,
    output: updateHistoricMerchantAnswer,
  }),
  getFlags: endpoint({
    method: 'GET',
    path: pciPaths.getFlags,
    summary: 'The billing flags and what they mean',
    output: z.array(pciFlag),
  }),
  getDefaultFees: endpoint({
    method: 'GET',
    path: pciPaths.getDefaultFees,
    summary: 'The default fee of each billing flag (pci_restricted)',
    output: z.array(pciDefaultFee),
  }),
  getFees: endpoint({
    method: 'GET',
    path: pciPaths.getFees,
    summary: 'The fee exceptions, one row per filter, by group (pci_restricted)',
    output: z.array(pciFee),
  }),
  getFilters: endpoint({
    method: 'GET',
    path: pciPaths.getFilters,
    summary: 'The merchant fields an exception may test (pci_restricted)',
    output: z.array(pciFilter),
  }),
  getFilterOperators: endpoint({
    method: 'GET',
    path: pciPaths.getFilterOperators,
    summary: 'The operators of exception filters, by type (pci_restricted)',
    output: z.array(pciFilterOperator),
  }),
  getDefaultFrequencies: endpoint({
    method: 'GET',
    path: pciPaths.getDefaultFrequencies,
    summary: 'The default billing type (the frequency of the first row) (pci_restricted)',
    output: z.array(z.object({ frequency: z.enum(PCI_FREQUENCIES) })),
  }),
  getFrequencies: endpoint({
    method: 'GET',
    path: pciPaths.getFrequencies,
    summary: 'The billing-type (frequency) exceptions, one row per filter, by group (pci_restricted)',
    output: z.array(pciFrequency),
  }),
  getPciRevShares: endpoint({
    method: 'GET',
    path: pciPaths.getPciRevShares,
    summary: 'Every ISO PCI rev share with its effective date (pci_restricted)',
    output: z.array(pciRevShare),
  }),
  getPartners: endpoint({
    method: 'GET',
    path: pciPaths.getPartners,
    summary: 'The ISOs, by name',
    output: z.array(pciPartner),
  }),
  updateDefaultFee: endpoint({
    method: 'POST',
    path: pciPaths.updateDefaultFee,
    summary: "Sets a billing flag's default fee and ISO cost (pci_fees); audited",
    input: updateDefaultFeeBody,
    output: messageAnswer,
  }),
  insertFee: endpoint({
    method: 'POST',
    path: pciPaths.insertFee,
    summary: 'Replaces the fee exceptions with the grouped list sent (pci_fees); audited',
    input: insertFeeBody,
    output: messageAnswer,
  }),
  updateDefaultFrequency: endpoint({
    method: 'POST',
    path: pciPaths.updateDefaultFrequency,
    summary: 'Sets the default billing type (pci_fees); audited',
    input: updateDefaultFrequencyBody,
    output: messageAnswer,
  }),
  insertFrequency: endpoint({
    method: 'POST',
    path: pciPaths.insertFrequency,
    summary: 'Replaces the billing-type exceptions with the grouped list sent (pci_fees); audited',
    input: insertFrequencyBody,
    output: messageAnswer,
  }),
  getFilterSourceDisplays: endpoint({
    method: 'POST',
    path: pciPaths.getFilterSourceDisplays,
    summary:
      "A filter source's values with their display text; only the filters' own sources (pci_restricted)",
    input: filterSourceDisplaysBody,
    output: z.array(filterSourceDisplay),
  }),
  getFilterSourceValues: endpoint({
    method: 'POST',
    path: pciPaths.getFilterSourceValues,
    summary: "A filter source's distinct values; only the filters' own sources (pci_restricted)",
    input: filterSourceValuesBody,
    output: z.array(filterSourceValue),
  }),
  addRevShare: endpoint({
    method: 'POST',
    path: pciPaths.addRevShare,
    summary: "Adds (or replaces) an ISO's PCI rev share from an effective date (pci_restricted); audited",
    input: addRevShareBody,
    output: messageAnswer,
  }),
  deleteRevShare: endpoint({
    method: 'POST',
    path: pciPaths.deleteRevShare,
    summary: "Deletes an ISO's PCI rev share (of one effective date, or all) (pci_restricted); audited",
    input: deleteRevShareBody,
    output: messageAnswer,
  }),
  merchantsTable: tableEndpoints(
    'PCI merchants',
    { query: pciPaths.merchantsQuery, export: pciPaths.merchantsExport },
    {},
  ),
  billingTable: tableEndpoints(
    'PCI billing',
    { query: pciPaths.billingQuery, export: pciPaths.billingExport },
    monthTable,
  ),
  commissionsTable: tableEndpoints(
    'PCI commissions',
    { query: pciPaths.commissionsQuery, export: pciPaths.commissionsExport },
    monthTable,
  ),
  oldMerchantsTable: tableEndpoints(
    'PCI old merchants (pci_restricted)',
    { query: pciPaths.oldMerchantsQuery, export: pciPaths.oldMerchantsExport },
    {},
  ),
  billingRun: endpoint({
    method: 'POST',
    path: pciPaths.billingRun,
    summary: "A month's billing run as recorded (who, when, entries, total, merchants left out), or null",
    input: pciMonth,
    output: billingRunAnswer,
  }),
};
