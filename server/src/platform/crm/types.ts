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

/** A lead as the CRM lists it, in Salesforce's field names (spec document 3 §3 "Lead"). */
export interface CrmLeadRecord {
  Id: string;
  Name: string;
  Company: string | null;
  Status: string;
  CreatedDate: string;
  /** The owning relationship manager's name (the org's custom field). */
  Real_Owner_del__c: string | null;
}

/** One lead with the contact fields that prefill the lead form; nothing sensitive is kept in the CRM. */
export interface CrmLead extends CrmLeadRecord {
  FirstName: string | null;
  LastName: string | null;
  Email: string | null;
  Phone: string | null;
  Street: string | null;
  City: string | null;
  State: string | null;
  PostalCode: string | null;
  /** Set once the lead was converted (its underwriter approved it). */
  ConvertedAccountId: string | null;
}

/**
 * The CRM PayDesk syncs partners with (spec document 2 §1): Salesforce in production, the sandbox by default.
 * Every call gets the caller's transaction: the sandbox keeps its records in PayDesk's database, so what it
 * writes commits or rolls back with the request; a remote CRM ignores it. Reads come in pages so an import
 * never holds a whole remote answer at once. Leads are listed and read here, and converted on approval.
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
  /** Every lead, newest first: the lead picker. */
  leads(db: Db): Promise<CrmLeadRecord[]>;
  /**
   * The same list already written as the JSON text `{"records": [...]}`, when the CRM can write it faster than
   * leads() plus JSON.stringify (the sandbox, in SQL: 10,000 leads on every picker load).
   */
  leadsJson?(db: Db): Promise<string>;
  /** One lead, or null when the CRM has no such lead. */
  lead(db: Db, leadId: string): Promise<CrmLead | null>;
  /** Converts an approved lead into an account and answers the account's id (converting twice is refused). */
  convertLead(db: Db, leadId: string): Promise<string>;
  /** The account's profile page in the CRM, or null when the CRM has none to link to (the sandbox). */
  accountUrl(accountId: string): Promise<string | null>;
}
