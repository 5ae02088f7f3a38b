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
  created_at: Timestamp;
}
