import { partnerImportColumns } from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { type HeldCursor, holdCursor } from '../../platform/heldCursor';
import { rejectRows } from '../../platform/imports';

/**
 * The partner export sheet and Import XLSX (spec document 2 §3): one row per account, its group IDs
 * comma-joined in effective-date order, the account fields and the first effective date, under the headers
 * of partnerImportColumns (their labels), so an exported file imports back unchanged.
 */
export function holdExportRows(db: Db): Promise<HeldCursor<Record<string, unknown>>> {
  return holdCursor<Record<string, unknown>>(
    db,
    sql<Record<string, unknown>>`
      select p.account_id as accountid, p.account_name as accountname,
        (select string_agg(g.group_id, ', ' order by g.effective_date, g.group_id) from groups g
          where g.partner_id = p.id) as groupids,
        p.status, p.rm, p.recruiter, p.isc, p.liability, p.date_signed::text as datesigned, p.full_name as fullname,
        p.processing_email as processingemail, p.phone, p.billing_street as billingstreet,
        p.billing_city as billingcity, p.billing_state as billingstate, p.billing_zip as billingzip,
        p.operation_email as operationemail,
        (select min(g.effective_date)::text from groups g where g.partner_id = p.id) as effectivedate
      from partners p order by p.account_name, p.account_id`.compile(db),
  );
}

export const exportColumns = partnerImportColumns.map((c) => ({
  key: c.header,
  header: c.label ?? c.header,
  type: c.type === 'decimal' ? ('decimal' as const) : ('text' as const),
}));

/**
 * Applies the staged rows (platform/imports.ts, table import_rows): every problem of every row is found first
 * and the file refused whole; then accounts are added or their fields updated. Group IDs must be the account's
 * own (groups are made by Add Group ID or the CRM, never by a spreadsheet); the effective date is derived from
 * the groups and not written.
 */
export async function applyPartnerImport(db: Db): Promise<{ added: number; changed: number }> {
  await sql`create temporary table import_group_ids on commit drop as
    select r.row_no, r.c_accountid, trim(x.id) as group_id
    from import_rows r, unnest(string_to_array(coalesce(r.c_groupids, ''), ',')) as x(id)
    where trim(x.id) <> ''`.execute(db);
  await rejectRows(
    db,
    `select row_no, column_name, message from (
       select r.row_no, 'accountid' as column_name, 'Account ' || r.c_accountid || ' appears more than once in the file' as message
       from import_rows r where exists (select 1 from import_rows o where o.c_accountid = r.c_accountid and o.row_no < r.row_no)
       union all
       select r.row_no, 'isc', 'ISC is a fraction between 0 and 1 (0.8 is 80 %)'
       from import_rows r where r.c_isc < 0 or r.c_isc > 1
       union all
       select r.row_no, 'status', 'Status must be at most 40 characters'
       from import_rows r where length(r.c_status) > 40
       union all
       select i.row_no, 'groupids', 'Group ' || i.group_id || ' is not a group of account ' || i.c_accountid
       from import_group_ids i
       where not exists (select 1 from groups g join partners p on p.id = g.partner_id
                         where g.group_id = i.group_id and p.account_id = i.c_accountid)
     ) problems`,
    (r) => String(r.message),
  );
  const fields = [
    ['account_name', 'c_accountname'],
    ['status', 'c_status'],
    ['rm', 'c_rm'],
    ['recruiter', 'c_recruiter'],
    ['isc', 'c_isc'],
    ['liability', 'c_liability'],
    ['date_signed', 'c_datesigned'],
    ['full_name', 'c_fullname'],
    ['processing_email', 'c_processingemail'],
    ['phone', 'c_phone'],
    ['billing_street', 'c_billingstreet'],
    ['billing_city', 'c_billingcity'],
    ['billing_state', 'c_billingstate'],
    ['billing_zip', 'c_billingzip'],
    ['operation_email', 'c_operationemail'],
  ] as const;
  const columns = sql.raw(fields.map(([c]) => c).join(', '));
  const staged = sql.raw(fields.map(([, s]) => `r.${s}`).join(', '));
  const current = sql.raw(fields.map(([c]) => `p.${c}`).join(', '));
  const added = await sql`insert into partners (account_id, ${columns})
    select r.c_accountid, ${staged} from import_rows r
    where not exists (select 1 from partners p where p.account_id = r.c_accountid)`.execute(db);
  const changed =
    await sql`update partners p set ${sql.raw(fields.map(([c, s]) => `${c} = r.${s}`).join(', '))}
    from import_rows r where p.account_id = r.c_accountid and (${current}) is distinct from (${staged})`.execute(
      db,
    );
  return { added: Number(added.numAffectedRows ?? 0n), changed: Number(changed.numAffectedRows ?? 0n) };
}
