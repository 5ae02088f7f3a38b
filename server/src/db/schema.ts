import type { Capability, Department } from '@paydesk/domain';
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
}

export type UserRecord = Selectable<UsersTable>;
export type NewPartner = Insertable<PartnersTable>;
