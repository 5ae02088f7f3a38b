import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { badRequest } from '../errors';
import type { Crm, CrmAccount, CrmGroup, CrmLead, CrmLeadRecord, NewCrmGroup } from './types';

const PAGE = 2000;

/**
 * The default CRM: accounts and groups in PayDesk's own tables crm_accounts and crm_groups (filled by the
 * demo seed, and from the existing partners by their migration). Deterministic, and what PayDesk writes to it
 * (a new group, a rev share) is there on the next import, as with the real CRM.
 */
export class SandboxCrm implements Crm {
  readonly kind = 'sandbox';
  readonly description =
    'sandbox CRM in the database (set SALESFORCE_USERNAME and SALESFORCE_PASSWORD for Salesforce)';

  async *accounts(db: Db): AsyncIterable<CrmAccount[]> {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('crm_accounts')
        .selectAll()
        .where('account_id', '>', after)
        .orderBy('account_id')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((r) => ({ ...r, isc: r.isc === null ? null : String(r.isc) }));
      after = rows[rows.length - 1]?.account_id ?? after;
      if (rows.length < PAGE) return;
    }
  }

  async *groups(db: Db): AsyncIterable<CrmGroup[]> {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('crm_groups')
        .selectAll()
        .where('group_sf_id', '>', after)
        .orderBy('group_sf_id')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((r) => ({ ...r, rev_share: String(r.rev_share) }));
      after = rows[rows.length - 1]?.group_sf_id ?? after;
      if (rows.length < PAGE) return;
    }
  }

  async createGroup(db: Db, group: NewCrmGroup): Promise<string> {
    // Salesforce-like 18-character ids of a custom object ('a0G' prefix), from the sandbox's own sequence.
    const { rows } = await sql<{ id: string }>`
      select 'a0GSBX' || lpad(nextval('crm_group_sf_seq')::text, 12, '0') as id`.execute(db);
    const id = rows[0]?.id;
    if (!id) throw new Error('The sandbox CRM could not number a group');
    await db
      .insertInto('crm_groups')
      .values({ group_sf_id: id, ...group })
      .execute();
    return id;
  }

  async setRevShare(db: Db, groupSfId: string, revShare: string): Promise<void> {
    await db
      .updateTable('crm_groups')
      .set({ rev_share: revShare })
      .where('group_sf_id', '=', groupSfId)
      .execute();
  }

  async leads(db: Db): Promise<CrmLeadRecord[]> {
    const { rows } = await sql<CrmLeadRecord>`
      select lead_id as "Id", name as "Name", company as "Company", status as "Status",
             to_char(created_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "CreatedDate",
             owner_name as "Real_Owner_del__c"
      from crm_leads order by created_date desc, lead_id`.execute(db);
    return rows;
  }

  async leadsJson(db: Db): Promise<string> {
    const { rows } = await sql<{ json: string }>`
      select json_build_object('records', coalesce(json_agg(json_build_object(
               'Id', lead_id, 'Name', name, 'Company', company, 'Status', status,
               'CreatedDate', to_char(created_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'Real_Owner_del__c', owner_name) order by created_date desc, lead_id), '[]'::json))::text as json
      from crm_leads`.execute(db);
    return rows[0]?.json ?? '{"records":[]}';
  }

  async lead(db: Db, leadId: string): Promise<CrmLead | null> {
    const row = await db.selectFrom('crm_leads').selectAll().where('lead_id', '=', leadId).executeTakeFirst();
    if (!row) return null;
    return {
      Id: row.lead_id,
      Name: row.name,
      Company: row.company,
      Status: row.status,
      CreatedDate: new Date(row.created_date).toISOString(),
      Real_Owner_del__c: row.owner_name,
      FirstName: row.first_name,
      LastName: row.last_name,
      Email: row.email,
      Phone: row.phone,
      Street: row.street,
      City: row.city,
      State: row.state,
      PostalCode: row.postal_code,
      ConvertedAccountId: row.converted_account_id,
    };
  }

  async convertLead(db: Db, leadId: string): Promise<string> {
    // Salesforce-like 18-character account ids ('001' prefix), from the sandbox's own sequence.
    const { rows } = await sql<{ id: string | null }>`
      update crm_leads
      set converted_account_id = '001SBX' || lpad(nextval('crm_account_sf_seq')::text, 12, '0'),
          converted_at = now(), status = 'Converted'
      where lead_id = ${leadId} and converted_account_id is null
      returning converted_account_id as id`.execute(db);
    const id = rows[0]?.id;
    if (!id) throw badRequest('The lead is not in the CRM or was already converted');
    return id;
  }

  async accountUrl(): Promise<string | null> {
    return null;
  }
}
