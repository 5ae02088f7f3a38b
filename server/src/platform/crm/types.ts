import type { Db } from '../../db/connect';

/**
 * A partner account as the CRM holds it, in PayDesk's column names. `isc` and a group's `rev_share` are
 * fractions as exact decimal text ("0.8000"); dates are YYYY-MM-DD.
 */
export interface CrmAccount {
  account_id: string;
  account_name: string;
  status: string;
  rm: string | null;
  recruiter: string | null;
  isc: string | null;
  liability: string | null;
  date_signed: string | null;
  full_name: string | null;
  processing_email: string | null;
  phone: string | null;
  billing_street: string | null;
  billing_city: string | null;
  billing_state: string | null;
  billing_zip: string | null;
  operation_email: string | null;
}

/** A processing group of an account (`account_id`), keyed in the CRM by `group_sf_id`. */
export interface CrmGroup {
  group_sf_id: string;
  account_id: string;
  group_name: string;
  group_id: string;
  association_number: string | null;
  rev_share: string;
  bank: string | null;
  profile: string | null;
  processor: string;
  effective_date: string;
}

export type NewCrmGroup = Omit<CrmGroup, 'group_sf_id'>;

/**
 * The CRM PayDesk syncs partners with (spec document 2 §1): Salesforce in production, the sandbox by default.
 * Every call gets the caller's transaction: the sandbox keeps its records in PayDesk's database, so what it
 * writes commits or rolls back with the request; a remote CRM ignores it. Reads come in pages so an import
 * never holds a whole remote answer at once. The leads issue adds its calls here.
 */
export interface Crm {
  readonly kind: 'sandbox' | 'salesforce';
  /** One line for the start-up banner; never a credential. */
  readonly description: string;
  accounts(db: Db): AsyncIterable<CrmAccount[]>;
  groups(db: Db): AsyncIterable<CrmGroup[]>;
  /** Creates a group and answers its CRM id. */
  createGroup(db: Db, group: NewCrmGroup): Promise<string>;
  /** Sets a group's rev share (a fraction as decimal text), so the next import keeps the change. */
  setRevShare(db: Db, groupSfId: string, revShare: string): Promise<void>;
}
