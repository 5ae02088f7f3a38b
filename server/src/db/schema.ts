import type { Capability, Department, OutboxState } from '@paydesk/domain';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** One interface per table. Column names are the SQL names (snake_case); rows are mapped in each area. */
export interface Database {
  partners: PartnersTable;
  users: UsersTable;
  user_capabilities: UserCapabilitiesTable;
  password_history: PasswordHistoryTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  audit_log: AuditLogTable;
  outbox: OutboxTable;
  outbox_attachments: OutboxAttachmentsTable;
  mcc_codes: MccCodesTable;
  groups: GroupsTable;
  merchants: MerchantsTable;
  applications: ApplicationsTable;
  merchant_daily: ActivityTable & { day: DateOnly };
  merchant_monthly: ActivityTable & { month: DateOnly };
  merchant_income: MerchantIncomeTable;
  residuals: ResidualsTable;
  adjustments: AdjustmentsTable;
  schedule_a: ScheduleATable;
  approval_goals: { month: DateOnly; goal: number };
  holidays: { day: DateOnly; name: string };
  processing_budgets: {
    month: DateOnly;
    bank: string;
    budget: Decimal;
    updated_by: ColumnType<string | null, string | null | undefined, string | null>;
    updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  };
  processing_daily: {
    day: DateOnly;
    partner_id: number;
    volume: Decimal;
    transactions: ColumnType<string, number | string, number | string>;
  };
  /** Derived (db/derived.ts): a merchant's income over its whole history, for the ISO analytics stats. */
  deal_income: {
    merchant_id: number;
    partner_id: number;
    net: Decimal;
    payouts: Decimal;
    last_month: DateOnly;
  };
  /** Derived (db/derived.ts), the group rollups of Business Intelligence (docs/bi.md, Speed). */
  bi_group_daily: BiGroupActivity & { day: DateOnly };
  bi_group_monthly: BiGroupActivity & { month: DateOnly };
  bi_group_income: {
    group_id: string;
    month: DateOnly;
    partner_id: number;
    gross: Decimal;
    net: Decimal;
    expenses: Decimal;
    payouts: Decimal;
    merchants: number;
  };
  bi_group_deals: {
    group_id: string;
    /** The approval month. */
    month: DateOnly;
    partner_id: number;
    approved: number;
    first: DateOnly;
    last: DateOnly;
    net: Decimal;
    payouts: Decimal;
    closings: ClosingDays;
    /** Written by the database from `closings`: how many, and the last. */
    closed: Generated<number>;
    last_closing: Generated<DateOnly | null>;
  };
  /** A group's bi_group_deals rows of all its months, added up (migration 2026_12_04_0010). */
  bi_group_totals: {
    group_id: string;
    partner_id: number;
    first_month: DateOnly;
    last_month: DateOnly;
    approved: number;
    first: DateOnly;
    last: DateOnly;
    net: Decimal;
    payouts: Decimal;
    closings: ClosingDays;
    /** Written by the database from `closings`: how many, and the last. */
    closed: Generated<number>;
    last_closing: Generated<DateOnly | null>;
    /** Its months (days from 2000-01-01) and the deals approved in each, as array text, in month order. */
    approval_months: string;
    approval_counts: string;
    /** Its stats' fields of its own deals, as JSON text (migration 2026_12_17_0010), closings counted as past. */
    stats_fields: string;
  };
  bi_group_states: {
    group_id: string;
    state: string;
    partner_id: number;
    merchants: number;
    closings: ClosingDays;
    /** Written by the database from `closings`: how many, and the last. */
    closed: Generated<number>;
    last_closing: Generated<DateOnly | null>;
  };
  bi_group_openings: { group_id: string; day: DateOnly; partner_id: number; opened: number; closed: number };
  /** An ISO's GetAllInformation figures as of a day (db/derived.ts, refreshIsoInfo). */
  bi_iso_info: {
    partner_id: number;
    as_of: DateOnly;
    approved_deals: number;
    first: DateOnly;
    last: DateOnly;
    open_deals: number;
    closed_deals: number;
    open_longest: number | null;
    open_shortest: number | null;
    closed_longest: number | null;
    closed_shortest: number | null;
    open_age_set: string;
    closed_age_set: string;
    cbcal: number;
    esquire: number;
    chesapeake: number;
    pl_count: number;
    tr_count: number;
    hr_count: number;
    ns_count: number;
    /** The figures as GetAllInformation's JSON writes them, kept by a row trigger (migration 2026_12_06_0020). */
    answer: Generated<string>;
  };
  report_subscriptions: {
    id: Generated<number>;
    user_id: number;
    frequency: 'monthly' | 'quarterly';
    created_at: Timestamp;
    last_sent_at: NullableTimestamp;
  };
  saved_reports: SavedReportsTable;
  activity_rollup: ActivityRollupTable;
  selfserve_rows: Record<string, unknown> & { month: DateOnly; merchant_id: number; partner_id: number };
  signin_throttle: SigninThrottleTable;
  documents: DocumentsTable;
  job_progress: JobProgressTable;
  demo_state: DemoStateTable;
  demo_merchant_params: DemoMerchantParamsTable;
  demo_applications: { key: string; application_id: number };
  rev_share_history: RevShareHistoryTable;
  group_id_sequences: {
    bank: string;
    next_group_id: ColumnType<string, string | number, string | number>;
    next_association: ColumnType<string, string | number, string | number>;
  };
  crm_accounts: CrmAccountsTable;
  crm_groups: CrmGroupsTable;
  ach_reserves: AchReservesTable;
  ach_returns: AchReturnsTable;
  bonus_specs: BonusSpecsTable;
  bonus_excludes: BonusExcludesTable;
  clawback_specs: ClawbackSpecsTable;
  activation_specs: ActivationSpecsTable;
  extra_bonus_specs: ExtraBonusSpecsTable;
  bonus_equipment: BonusEquipmentTable;
  exclusive_equipment: BonusEquipmentTable & { iso_name: string; group_id: string };
  bonus_runs: BonusRunsTable;
  bonus_rows: BonusRowsTable;
  clawback_rows: ClawbackRowsTable;
  pci_merchants: PciMerchantsTable;
  pci_default_fees: { fee_flag: 'MTF' | 'ANF' | 'NCF'; amount: Decimal; iso_cost: Decimal };
  pci_default_frequency: { only_row: Generated<boolean>; frequency: 'MTF' | 'ANF' };
  pci_fees: PciFeesTable;
  pci_frequencies: PciFrequenciesTable;
  pci_rev_shares: { id: Generated<number>; partner_id: number; rev_share: Decimal; effective_date: DateOnly };
  pci_billing_runs: PciBillingRunsTable;
  pci_billing: PciBillingTable;
  ach_history: AchHistoryTable;
  ach_debit_entries: { merchant_id: number; partner_id: number; day: DateOnly; entries: number };
  ach_rate_window: AchRateWindowTable;
  /** ach_rate_window summed per ISO, rebuilt with it (migration 2026_11_28_0010). */
  ach_rate_window_iso: Omit<AchRateWindowTable, 'merchant_id'> & {
    merchants: number;
    merchants_over: number;
  };
  ach_legal_names: AchGroupTotals & {
    partner_id: number;
    legal_name: string;
    merch_rej_bal: Decimal;
  };
  crm_leads: CrmLeadsTable;
  lead_forms: LeadFormsTable;
  lead_applications: LeadApplicationsTable;
  lead_steps: LeadStepsTable;
  lead_checks: LeadChecksTable;
  lead_approvals: LeadApprovalsTable;
  /** Kept by triggers on ach_returns (migration 2026_11_25_0020); rej_res '' for none. */
  ach_groups: AchGroupTotals & {
    partner_id: number;
    classification: string;
    alert_label: string;
    rej_res: string;
  };
  ach_totals: AchGroupTotals & {
    partner_id: number;
    iso_name: ColumnType<string, string | undefined, string>;
  };
  /** Kept by triggers on selfserve_rows (migration 2026_11_27_0010): a month's rows and totals per ISO. */
  selfserve_month_totals: MonthTotals &
    Record<'tx_amt' | 'cb_amt' | 'ref_amt' | 'income', Decimal> &
    Record<'tx_cnt' | 'cb_cnt' | 'ref_cnt', Count>;
  /** Kept by triggers on residuals (migration 2026_11_27_0010): a month's rows and totals per ISO. */
  residual_month_totals: MonthTotals &
    Record<
      | 'volume'
      | 'income'
      | 'gross'
      | 'net'
      | 'ach_collected_gross'
      | 'ach_collected_payout'
      | 'ach_collected_net'
      | 'ach_rejected_gross'
      | 'ach_rejected_net'
      | 'refunds_gross'
      | 'refunds_payout'
      | 'refunds_net'
      | 'total_gross'
      | 'total_payout'
      | 'total_net'
      | 'income1'
      | 'expense'
      | 'profit_loss',
      Decimal
    > & { transactions: Count };
}

interface MonthTotals {
  month: DateOnly;
  partner_id: number;
  n: number;
}
/** A bigint sum: text from pg, a number in. */
type Count = ColumnType<string, string | number, string | number>;

/** The return count and money totals kept per group of ACH returns (legal name, ISO, or classification and Alert). */
interface AchGroupTotals {
  returns: number;
  transaction_amount: Decimal;
  used_rsv: Decimal;
  re_ran: Decimal;
  sent_to_coll: Decimal;
  write_off: Decimal;
}

/** A MID's reserve (migration 2026_11_22_0040). */
export interface AchReservesTable {
  merchant_id: number;
  partner_id: number;
  mid: string;
  rsv_hold: Decimal;
  rsv_ceiling: Decimal;
  rsv_balance: Decimal;
}

/**
 * One returned ACH debit or notification of change. row_balance and classification are generated by the
 * database; the reserve copies, occurrence, legal_name_mids and alert are kept by areas/ach (the legal name's
 * balance itself is on its ach_legal_names row).
 */
export interface AchReturnsTable {
  id: Generated<number>;
  historic: ColumnType<number, number | undefined, number>;
  merchant_id: number;
  partner_id: number;
  file_creation_date: DateOnly;
  mid: string;
  dba_name: string | null;
  legal_name: string;
  iso_name: string | null;
  company_entry_description: string;
  transaction_amount: Decimal;
  addenda_related: string;
  rej_res: string | null;
  res_date: DateOnly | null;
  last_proc_date: DateOnly | null;
  rej_dda: string | null;
  comment: string | null;
  used_rsv: NullableDecimal;
  used_rsv_date: DateOnly | null;
  re_ran: NullableDecimal;
  re_ran_date: DateOnly | null;
  sent_to_coll: NullableDecimal;
  write_off: NullableDecimal;
  merchant_status: string;
  rsv_hold: NullableDecimal;
  rsv_ceiling: NullableDecimal;
  rsv_balance: NullableDecimal;
  occurrence: ColumnType<number, number | undefined, number>;
  legal_name_mids: ColumnType<number, number | undefined, number>;
  alert: ColumnType<boolean, boolean | undefined, boolean>;
  alert_label: ColumnType<string, never, never>;
  datetime_worked: NullableTimestamp;
  worked_by: string | null;
  effective_entry_date: DateOnly;
  originating_dfi: string | null;
  version: ColumnType<number, number | undefined, number>;
  row_balance: ColumnType<string, never, never>;
  classification: ColumnType<string, never, never>;
}

/** One edit of an ACH row's column (values as text). */
export interface AchHistoryTable {
  id: Generated<number>;
  ach_return_id: number;
  partner_id: number;
  column_name: string;
  old_value: string | null;
  new_value: string | null;
  changed_by_user_id: number | null;
  changed_by: string | null;
  changed_at: Timestamp;
}

/** A merchant's ACH debit entries and returns over the 60 days ending as_of (areas/ach/queries.ts). */
export interface AchRateWindowTable {
  merchant_id: number;
  partner_id: number;
  as_of: DateOnly;
  entries: number;
  returns: number;
  unauthorized: number;
  administrative: number;
  /** Generated (migration 2026_11_23_0006): the panel's order. */
  over: Generated<boolean>;
  severity: Generated<number>;
  overall: Generated<number>;
}

/** A change of a group's rev share (fractions); the import's changes have no user. */
export interface RevShareHistoryTable {
  id: Generated<number>;
  partner_id: number;
  group_row_id: number;
  old_rev_share: Decimal | null;
  new_rev_share: Decimal;
  changed_by_user_id: number | null;
  changed_by: string | null;
  changed_at: Timestamp;
}

/** The sandbox CRM's accounts (platform/crm/sandbox.ts). */
export interface CrmAccountsTable {
  account_id: string;
  account_name: string;
  status: string;
  rm: string | null;
  recruiter: string | null;
  isc: Decimal | null;
  liability: string | null;
  date_signed: DateOnly | null;
  full_name: string | null;
  processing_email: string | null;
  phone: string | null;
  billing_street: string | null;
  billing_city: string | null;
  billing_state: string | null;
  billing_zip: string | null;
  operation_email: string | null;
}

/** The sandbox CRM's groups. */
export interface CrmGroupsTable {
  group_sf_id: string;
  account_id: string;
  group_name: string;
  group_id: string;
  association_number: string | null;
  rev_share: Decimal;
  bank: string | null;
  profile: string | null;
  processor: string;
  effective_date: DateOnly;
}

/** What a running job last reported (platform/jobs.ts); the job itself is in pg-boss's schema. */
export interface JobProgressTable {
  job_id: string;
  percent: number;
  message: string;
  updated_at: Generated<Date>;
}

/** timestamptz with a default: optional on insert. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** timestamptz without a default. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DateOnly = ColumnType<string, string, string>;
/** numeric columns travel as exact decimal strings, never floats. */
type Decimal = ColumnType<string, string | number, string | number>;

/** A partner group's activity in a day or month (bi_group_daily, bi_group_monthly): sums of its merchants' rows. */
interface BiGroupActivity extends Omit<ActivityTable, 'merchant_id'> {
  group_id: string;
  /** Merchants with transactions; the profile columns split it and the counts by tr, pl, hr and ns. */
  active: number;
  tr_active: number;
  tr_transactions: number;
  tr_chargebacks: number;
  tr_refunds: number;
  pl_active: number;
  pl_transactions: number;
  pl_chargebacks: number;
  pl_refunds: number;
  hr_active: number;
  hr_transactions: number;
  hr_chargebacks: number;
  hr_refunds: number;
  ns_active: number;
  ns_transactions: number;
  ns_chargebacks: number;
  ns_refunds: number;
}

/**
 * The closed merchants' closing days, sorted (date[]). Read in SQL only: PGlite answers a date[] as text, pg as
 * Date objects (connect.ts sets no parser for arrays of dates).
 */
type ClosingDays = ColumnType<string[], string[], string[]>;

/** An ISO: a partner sales organisation (spec document 2 §3, partner account). */
export interface PartnersTable {
  id: Generated<number>;
  account_id: string;
  account_name: string;
  status: Generated<string>;
  rm: string | null;
  recruiter: string | null;
  isc: Decimal | null;
  liability: string | null;
  date_signed: DateOnly | null;
  full_name: string | null;
  processing_email: string | null;
  phone: string | null;
  billing_street: string | null;
  billing_city: string | null;
  billing_state: string | null;
  billing_zip: string | null;
  operation_email: string | null;
  /** The house's own (in-house) partners, the spec's SGPY. */
  in_house: Generated<boolean>;
  created_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  department: Department;
  password_hash: string;
  active: Generated<boolean>;
  failed_signins: Generated<number>;
  locked_until: NullableTimestamp;
  partner_id: number | null;
  password_changed_at: Timestamp;
  last_signin_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface UserCapabilitiesTable {
  user_id: number;
  capability: Capability;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a stolen table does not yield usable sessions. */
  token_hash: string;
  /** Public reference of the session (the sign-in answer's `token`); not a credential. */
  public_id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  last_seen_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  used_at: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_user_id: number | null;
  actor_email: string | null;
  action: string;
  subject: string | null;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string, string>;
}

export interface OutboxTable {
  id: Generated<number>;
  created_at: Timestamp;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** How delivery went; see platform/mailer.ts. */
  state: Generated<OutboxState>;
  /** Tries to hand the mail to the SMTP server so far. */
  attempts: Generated<number>;
  /** The SMTP server's (or the connection's) last error; null once none happened. */
  last_error: string | null;
  sent_at: NullableTimestamp;
}

/** A mail's attachments, in order: internal documents (documents.partner_id is null). */
export interface OutboxAttachmentsTable {
  outbox_id: number;
  document_id: number;
  position: number;
}

export type UserRecord = Selectable<UsersTable>;

/** Failed sign-ins per client address (`client:…`) and per e-mail address without an account (`email:…`). */
export interface SigninThrottleTable {
  key: string;
  failures: Generated<number>;
  window_started_at: Timestamp;
  locked_until: NullableTimestamp;
}
/** The live demo's marker: present only in a database the seed filled. See db/seed/live.ts. */
export interface DemoStateTable {
  only_row: Generated<boolean>;
  seed: number;
  scale: string;
  seeded_at: RequiredTimestamp;
  caught_up_to: RequiredTimestamp;
}

/** What the generator drew for a demo merchant, to continue it on later days. */
export interface DemoMerchantParamsTable {
  merchant_id: number;
  activates_on: DateOnly | null;
  closes_on: DateOnly;
  base: number;
  ticket: number;
  cb_rate: number;
  refund_rate: number;
  trend: number;
  margin_bps: number;
  ic_rate: number;
}

export type NewPartner = Insertable<PartnersTable>;

export interface MccCodesTable {
  code: string;
  description: string;
}

export interface GroupsTable {
  id: Generated<number>;
  partner_id: number;
  group_sf_id: string;
  group_name: string;
  group_id: string;
  association_number: string | null;
  /** A fraction: 0.8 is 80 %. */
  rev_share: Decimal;
  bank: string | null;
  profile: string | null;
  processor: Generated<string>;
  effective_date: DateOnly;
}

export interface MerchantsTable {
  id: Generated<number>;
  mid: string;
  dba: string;
  legal_name: string;
  partner_id: number;
  group_id: string;
  profile: string;
  sponsor_bank: string;
  association_number: string | null;
  mcc: string;
  status: string;
  email: string | null;
  phone: string | null;
  cb_email: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  funding: Generated<string>;
  opened_on: DateOnly;
  approved_on: DateOnly;
  activated_on: DateOnly | null;
  closed_on: DateOnly | null;
  rm: string | null;
  underwriter: string | null;
  sales_rep: string | null;
  ownership_type: ColumnType<string | null, string | null | undefined, string | null>;
  equipment_model: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApplicationsTable {
  id: Generated<number>;
  partner_id: number;
  group_id: string | null;
  merchant_id: number | null;
  dba: string;
  profile: string;
  sponsor_bank: string;
  status: string;
  pending_level: number | null;
  submitted_at: RequiredTimestamp;
  approved_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  underwriter: string | null;
  rm: string | null;
}

export interface ActivityTable {
  merchant_id: number;
  partner_id: number;
  volume: Decimal;
  transactions: number;
  chargeback_volume: Decimal;
  chargebacks: number;
  refund_volume: Decimal;
  refunds: number;
}

export interface MerchantIncomeTable {
  merchant_id: number;
  partner_id: number;
  month: DateOnly;
  gross: Decimal;
  net: Decimal;
  expenses: Decimal;
  payouts: Decimal;
  interchange_income: Decimal;
  interchange_expense: Decimal;
  card_brand_income: Decimal;
  card_brand_expense: Decimal;
}

type NullableDecimal = ColumnType<string | null, string | number | null | undefined, string | number | null>;

export interface ResidualsTable {
  id: Generated<number>;
  partner_id: number;
  merchant_id: number | null;
  month: DateOnly;
  processor: string;
  mid: string;
  dba: string | null;
  agent: string | null;
  office: string | null;
  payout_schedule: string | null;
  payout_to: string | null;
  transactions: number;
  volume: Decimal;
  income: Decimal;
  gross: Decimal;
  net: Decimal;
  ach_collected_gross: NullableDecimal;
  ach_collected_payout: NullableDecimal;
  ach_collected_net: NullableDecimal;
  ach_rejected_gross: NullableDecimal;
  ach_rejected_net: NullableDecimal;
  refunds_gross: NullableDecimal;
  refunds_payout: NullableDecimal;
  refunds_net: NullableDecimal;
  total_gross: Decimal;
  total_payout: Decimal;
  total_net: Decimal;
  income1: NullableDecimal;
  expense: Decimal;
  profit_loss: Decimal;
}

export interface AdjustmentsTable {
  id: Generated<number>;
  partner_id: number;
  merchant_id: number;
  month: DateOnly;
  mid: string;
  category: string;
  description: string | null;
  amount: Decimal;
}

export interface ScheduleATable {
  id: Generated<number>;
  partner_id: number;
  item: string;
  category: string;
  rate_bps: NullableDecimal;
  per_item: NullableDecimal;
  effective_date: DateOnly;
}

export interface SavedReportsTable {
  id: Generated<number>;
  user_id: number;
  table_name: string;
  report_name: string;
  filters: ColumnType<unknown, string, string>;
  columns: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface ActivityRollupTable {
  month: DateOnly;
  dimension: string;
  value: string;
  volume: Decimal;
  transactions: number;
  income: Decimal;
  merchants: number;
  age_months: number;
}

/** A file kept in the database; see platform/documents.ts. partner_id null: internal, hidden from partner staff. */
export interface DocumentsTable {
  id: Generated<number>;
  owner_user_id: number;
  partner_id: number | null;
  kind: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  /** pg returns a Buffer, PGlite a Uint8Array. */
  content: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  /** The content is encryptPii of its base64 (platform/pii.ts); false for a document kept in clear. */
  encrypted: Generated<boolean>;
  created_at: Timestamp;
}

/** Bonus specifications and computed rows (migration 2026_11_23_0030, docs/bonus.md). */
export interface BonusSpecsTable {
  id: Generated<number>;
  iso_name: string | null;
  group_id: string;
  amount: Decimal;
  on_activation: boolean;
  placement_only: boolean;
  volume_days: number;
  volume_threshold: Decimal;
  profile: 'PL' | 'TR';
  period: 'W' | 'M';
}
export interface BonusExcludesTable {
  id: Generated<number>;
  iso_name: string | null;
  group_id: string;
  profile: 'PL' | 'TR';
  period: 'W' | 'M';
}
export interface ClawbackSpecsTable {
  id: Generated<number>;
  iso_name: string | null;
  group_id: string;
  closure_days: number;
  volume_days: number;
  volume_threshold: Decimal;
  non_processing: boolean;
  monthly_volume_threshold: Decimal;
}
export interface ActivationSpecsTable {
  id: Generated<number>;
  iso_name: string | null;
  group_id: string;
  volume_days: number;
  volume_threshold: Decimal;
}
export interface ExtraBonusSpecsTable {
  id: Generated<number>;
  iso_name: string;
  group_id: string;
  extra_deals: number;
  extra_amount: Decimal;
  bonus_type: 'EPD' | 'EFR';
  start_date: DateOnly;
  end_date: DateOnly;
  enabled: boolean;
}
export interface BonusEquipmentTable {
  id: Generated<number>;
  title: string;
  model: string;
  amount: Decimal;
}
export interface BonusRunsTable {
  id: Generated<number>;
  kind: 'W' | 'M' | 'ME' | 'CB';
  window_start: DateOnly;
  window_end: DateOnly;
  run_date: DateOnly;
  rows_written: number;
  rows_kept: number;
  ran_at: Timestamp;
  ran_by: string | null;
}
export interface BonusRowsTable {
  id: Generated<number>;
  period: 'W' | 'M' | 'ME';
  window_start: DateOnly;
  window_end: DateOnly;
  bonus_date: DateOnly;
  merchant_id: number;
  partner_id: number;
  mid: string;
  bonus_type: string;
  bonus_amount: Decimal;
  spec_id: number;
  activated_on: DateOnly | null;
  explanation: string;
  address_key: string | null;
  do_not_pay: Generated<boolean>;
  note: string | null;
  worked_datetime: NullableTimestamp;
  worked_by: string | null;
  /** Kept by triggers (migration 2026_12_05_0010): the merchant's daily volume up to the bonus date, and its last day with volume. */
  days_volume: Generated<Decimal | null>;
  days_last_deposit: Generated<DateOnly | null>;
  /** Kept by triggers: earlier weekly or monthly rows of other MIDs at the address, among every row and among the row's ISO's. */
  matches_all: Generated<number>;
  matches_iso: Generated<number>;
  /** Kept by triggers (migration 2026_12_06_0010): the JSON of GetBonus's row up to its match count, and the merchant's opening day. */
  answer_head: Generated<string>;
  merchant_opened_on: Generated<DateOnly>;
}
export interface ClawbackRowsTable {
  id: Generated<number>;
  run_date: DateOnly;
  bonus_id: number;
  merchant_id: number;
  partner_id: number;
  mid: string;
  rule_id: number;
  reason: string;
  reason_text: string;
  flag: 'CBY' | 'CBN';
  amount: Decimal;
  total_volume: Decimal;
  last_deposit_date: DateOnly | null;
  volume_threshold_date: DateOnly | null;
  explanation: string;
  do_not_clawback: Generated<boolean>;
  worked_datetime: NullableTimestamp;
  worked_by: string | null;
}

/** PCI compliance (migration 2026_11_24_0020, docs/pci.md). */
export interface PciMerchantsTable {
  merchant_id: number;
  partner_id: number;
  mid: string;
  /** The merchant's DBA, kept by triggers (migration 2026_12_01_0010): any value written is replaced by it. */
  dba: Generated<string>;
  pci_compliant: boolean;
  achieved_date: DateOnly | null;
  due_date: DateOnly | null;
  merchant_status: '' | 'C';
  /** Encrypted (platform/pii.ts). */
  aba_number: string | null;
  aba_last4: string | null;
  /** Encrypted (platform/pii.ts). */
  dda_number: string | null;
  dda_last4: string | null;
  /** The engine's answers under the current configuration (refreshMerchantFees); defaulted on insert. */
  billing_type: ColumnType<'MTF' | 'ANF', 'MTF' | 'ANF' | undefined, 'MTF' | 'ANF'>;
  pci_fee: ColumnType<string, string | number | undefined, string | number>;
  pci_noncomp_fee: ColumnType<string, string | number | undefined, string | number>;
  updated_at: Timestamp;
  updated_by: string | null;
}
export interface PciFeesTable {
  id: Generated<number>;
  fee_flag: 'MTF' | 'ANF' | 'NCF' | 'SMF';
  amount: Decimal;
  iso_cost: Decimal;
  filter_id: number;
  filter_value: string;
  filter_operator_id: number;
  fee_group: number;
}
export interface PciFrequenciesTable {
  id: Generated<number>;
  frequency: 'MTF' | 'ANF';
  filter_id: number;
  filter_value: string;
  filter_operator_id: number;
  frequency_group: number;
}
export interface PciBillingRunsTable {
  id: Generated<number>;
  month: DateOnly;
  created_at: Timestamp;
  created_by: string;
  entries: number;
  total_debit: Decimal;
  skipped: ColumnType<unknown, string, string>;
  file: string;
}
export interface PciBillingTable {
  id: Generated<number>;
  month: DateOnly;
  run_id: number;
  merchant_id: number;
  partner_id: number;
  mid: string;
  billing_flag: 'MTF' | 'ANF' | 'NCF';
  amount: Decimal;
  iso_cost: Decimal;
  iso_rev_share: NullableDecimal;
  amount_due: NullableDecimal;
  created_date: DateOnly;
  processed_date: DateOnly | null;
}

/** The sandbox CRM's leads (migration 2026_11_24_0030). */
export interface CrmLeadsTable {
  lead_id: string;
  name: string;
  company: string | null;
  status: string;
  created_date: RequiredTimestamp;
  owner_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  converted_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  converted_at: NullableTimestamp;
}

/** A saved lead form; the sensitive numbers only encrypted (platform/pii.ts). */
export interface LeadFormsTable {
  lead_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  ssn_encrypted: string;
  dob_encrypted: string;
  home_address: string;
  home_city: string;
  home_state: string;
  home_zip: string;
  dba: string | null;
  legal_name: string;
  iso_split: Decimal | null;
  tin_encrypted: string | null;
  business_type: string | null;
  business_email: string | null;
  business_phone: string | null;
  business_address_1: string;
  business_address_2: string | null;
  business_city: string;
  business_state: string;
  business_zip: string;
  aba_number_encrypted: string;
  dda_number_encrypted: string;
  sales_agent: number | null;
  years_industry: number | null;
  owner_name: string | null;
  saved_by: number;
  saved_at: Timestamp;
}

export interface LeadApplicationsTable {
  lead_id: string;
  filename: string;
  size_bytes: number;
  content_encrypted: string;
  fields_encrypted: string;
  uploaded_by: number;
  uploaded_at: Timestamp;
}

export interface LeadStepsTable {
  lead_id: string;
  current_step: number;
  completed: boolean;
  updated_at: Timestamp;
}

export interface LeadChecksTable {
  lead_id: string;
  check_type: 'DataX' | 'Match' | 'TinCheck' | 'Giact' | 'LexisNexis';
  runtime_status: 'initiated' | 'started' | 'finished' | 'stopped' | 'uploaded' | null;
  run: ColumnType<number, number | undefined, number>;
  result: string | null;
  error_msg: string | null;
  document_name: string | null;
  provider: string | null;
  queued_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  queued_by: number | null;
}

export interface LeadApprovalsTable {
  id: Generated<number>;
  lead_id: string;
  token_hash: string;
  assigned_user: string;
  assigned_by: string;
  cc_user: string | null;
  created_on: Timestamp;
  expires_on: RequiredTimestamp;
  approved: number | null;
  comment: string | null;
  decided_on: NullableTimestamp;
  first_name: string | null;
  last_name: string | null;
  dba: string | null;
  legal_name: string | null;
  owner_name: string | null;
  uw_name: string;
  account_id: string | null;
}
