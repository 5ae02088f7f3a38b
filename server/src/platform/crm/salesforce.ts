import type { Connection } from 'jsforce';
import { badRequest } from '../errors';
import type { Crm, CrmAccount, CrmGroup, CrmLead, CrmLeadRecord, NewCrmGroup } from './types';

/**
 * Where PayDesk's partner fields live in Salesforce. The org's object and field API names are assumptions
 * documented in the README ("The CRM"); an org that names them differently changes this table only.
 * Percent fields (ISC, rev share) are 0–100 in Salesforce and fractions in PayDesk.
 */
export const SALESFORCE_MAPPING = {
  account: {
    object: 'Account',
    where: "Type = 'Partner'",
    fields: {
      account_id: 'Id',
      account_name: 'Name',
      status: 'Partner_Status__c',
      rm: 'Relationship_Manager__c',
      recruiter: 'Recruiter__c',
      isc: 'ISC__c',
      liability: 'Liability__c',
      date_signed: 'Date_Signed__c',
      full_name: 'Primary_Contact_Name__c',
      processing_email: 'Processing_Email__c',
      phone: 'Phone',
      billing_street: 'BillingStreet',
      billing_city: 'BillingCity',
      billing_state: 'BillingState',
      billing_zip: 'BillingPostalCode',
      operation_email: 'Operations_Email__c',
    } satisfies Record<keyof CrmAccount, string>,
  },
  group: {
    object: 'Processing_Group__c',
    where: "Account__r.Type = 'Partner'",
    fields: {
      group_sf_id: 'Id',
      account_id: 'Account__c',
      group_name: 'Name',
      group_id: 'Group_ID__c',
      association_number: 'Association_Number__c',
      rev_share: 'Rev_Share__c',
      bank: 'Bank__c',
      profile: 'Profile__c',
      processor: 'Processor__c',
      effective_date: 'Effective_Date__c',
    } satisfies Record<keyof CrmGroup, string>,
  },
} as const;

const PERCENT_COLUMNS = new Set(['isc', 'rev_share']);

/**
 * Leads are read in Salesforce's own field names; Real_Owner_del__c is the org's custom owner field the spec
 * names. An approved lead is converted with the status below (Salesforce's default converted status; an org
 * with another one changes it here) and without an opportunity.
 */
export const SALESFORCE_LEADS = {
  listFields: ['Id', 'Name', 'Company', 'Status', 'CreatedDate', 'Real_Owner_del__c'],
  detailFields: [
    'FirstName',
    'LastName',
    'Email',
    'Phone',
    'Street',
    'City',
    'State',
    'PostalCode',
    'ConvertedAccountId',
  ],
  convertedStatus: 'Closed - Converted',
  /** Salesforce answers at most this many leads to the picker, newest first. */
  maxLeads: 50_000,
} as const;

const LEAD_ID = /^[A-Za-z0-9]{15,18}$/;

type SfRecord = Record<string, unknown>;

/** Salesforce through jsforce 3.6 (the last line that runs on Node 20), signed in with a username and password. */
export class SalesforceCrm implements Crm {
  readonly kind = 'salesforce';
  readonly description: string;
  private connection: Promise<Connection> | null = null;

  constructor(
    private readonly settings: {
      loginUrl: string;
      username: string;
      password: string;
      securityToken: string;
    },
  ) {
    this.description = `Salesforce (${new URL(settings.loginUrl).host})`;
  }

  /** One sign-in, reused; a failed one is tried again on the next call. */
  private connect(): Promise<Connection> {
    if (!this.connection) {
      let conn: Connection;
      // jsforce (~35 MB) is loaded by the first sign-in, not by every process that might reach a CRM.
      this.connection = import('jsforce')
        .then(({ Connection }) => {
          conn = new Connection({ loginUrl: this.settings.loginUrl, version: '60.0' });
          return conn.login(this.settings.username, this.settings.password + this.settings.securityToken);
        })
        .then(() => conn)
        .catch((err: unknown) => {
          this.connection = null;
          // The answer may quote what was sent: only Salesforce's own error code leaves here.
          const code = (err as { errorCode?: string }).errorCode ?? 'unknown error';
          throw new Error(`Salesforce sign-in failed (${code})`);
        });
    }
    return this.connection;
  }

  accounts(): AsyncIterable<CrmAccount[]> {
    return this.pages<CrmAccount>(SALESFORCE_MAPPING.account);
  }

  groups(): AsyncIterable<CrmGroup[]> {
    return this.pages<CrmGroup>(SALESFORCE_MAPPING.group);
  }

  private async *pages<T>(map: { object: string; where: string; fields: Record<string, string> }) {
    const conn = await this.connect();
    const soql = `SELECT ${Object.values(map.fields).join(', ')} FROM ${map.object} WHERE ${map.where}`;
    let result = await conn.query<SfRecord>(soql, { autoFetch: false });
    for (;;) {
      yield result.records.map((r) => fromSalesforce(map.fields, r) as T);
      if (result.done || !result.nextRecordsUrl) return;
      result = await conn.queryMore<SfRecord>(result.nextRecordsUrl);
    }
  }

  async createGroup(_db: unknown, group: NewCrmGroup): Promise<string> {
    const conn = await this.connect();
    const record: SfRecord = {};
    for (const [column, field] of Object.entries(SALESFORCE_MAPPING.group.fields)) {
      if (column === 'group_sf_id') continue;
      const value = group[column as keyof NewCrmGroup];
      record[field] = PERCENT_COLUMNS.has(column) && value !== null ? Number(value) * 100 : value;
    }
    const saved = await conn.sobject(SALESFORCE_MAPPING.group.object).create(record);
    if (!saved.success) throw new Error('Salesforce did not create the group');
    return saved.id;
  }

  async setRevShare(_db: unknown, groupSfId: string, revShare: string): Promise<void> {
    const conn = await this.connect();
    const saved = await conn.sobject(SALESFORCE_MAPPING.group.object).update({
      Id: groupSfId,
      [SALESFORCE_MAPPING.group.fields.rev_share]: Number(revShare) * 100,
    });
    if (!saved.success) throw new Error('Salesforce did not update the rev share');
  }

  async leads(): Promise<CrmLeadRecord[]> {
    const conn = await this.connect();
    const soql = `SELECT ${SALESFORCE_LEADS.listFields.join(', ')} FROM Lead ORDER BY CreatedDate DESC`;
    const result = await conn.query<SfRecord>(soql, { autoFetch: true, maxFetch: SALESFORCE_LEADS.maxLeads });
    return result.records.map((r) => leadRecord(r));
  }

  async lead(_db: unknown, leadId: string): Promise<CrmLead | null> {
    // The id goes into SOQL: only a well-formed Salesforce id is ever sent.
    if (!LEAD_ID.test(leadId)) return null;
    const conn = await this.connect();
    const fields = [...SALESFORCE_LEADS.listFields, ...SALESFORCE_LEADS.detailFields].join(', ');
    const result = await conn.query<SfRecord>(`SELECT ${fields} FROM Lead WHERE Id = '${leadId}' LIMIT 1`);
    const r = result.records[0];
    if (!r) return null;
    const text = (f: string) => (r[f] === null || r[f] === undefined || r[f] === '' ? null : String(r[f]));
    return {
      ...leadRecord(r),
      FirstName: text('FirstName'),
      LastName: text('LastName'),
      Email: text('Email'),
      Phone: text('Phone'),
      Street: text('Street'),
      City: text('City'),
      State: text('State'),
      PostalCode: text('PostalCode'),
      ConvertedAccountId: text('ConvertedAccountId'),
    };
  }

  async convertLead(_db: unknown, leadId: string): Promise<string> {
    if (!LEAD_ID.test(leadId)) throw badRequest('No such lead in the CRM');
    const conn = await this.connect();
    const result = await conn.soap.convertLead({
      leadId,
      convertedStatus: SALESFORCE_LEADS.convertedStatus,
      doNotCreateOpportunity: true,
    });
    if (!result.success || !result.accountId) throw new Error('Salesforce did not convert the lead');
    return result.accountId;
  }

  async accountUrl(accountId: string): Promise<string | null> {
    const conn = await this.connect();
    return conn.instanceUrl
      ? `${conn.instanceUrl}/lightning/r/Account/${encodeURIComponent(accountId)}/view`
      : null;
  }
}

function leadRecord(r: SfRecord): CrmLeadRecord {
  const text = (f: string) => (r[f] === null || r[f] === undefined || r[f] === '' ? null : String(r[f]));
  return {
    Id: String(r.Id),
    Name: String(r.Name ?? ''),
    Company: text('Company'),
    Status: String(r.Status ?? ''),
    CreatedDate: new Date(String(r.CreatedDate)).toISOString(),
    Real_Owner_del__c: text('Real_Owner_del__c'),
  };
}

function fromSalesforce(fields: Record<string, string>, record: SfRecord): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [column, field] of Object.entries(fields)) {
    const value = record[field];
    if (value === null || value === undefined || value === '') out[column] = null;
    else if (PERCENT_COLUMNS.has(column)) out[column] = (Number(value) / 100).toFixed(4);
    else if (column === 'date_signed' || column === 'effective_date')
      out[column] = String(value).slice(0, 10);
    else out[column] = String(value);
  }
  return out;
}
