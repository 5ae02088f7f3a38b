import {
  LAST_GROUP_IDS_PER_BANK,
  type LastGroupIds,
  type PartnerAccount,
  type PartnerAccountGroupRow,
  type PartnerDirectoryRow,
  type PartnersColumn,
  partnersTable,
  type RevShareChange,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { type JsonText, jsonText } from '../../platform/http';
import type { TableSource } from '../../platform/tableQuery';

/** The account fields in the spec's names; `p` is partners. */
const ACCOUNT_COLUMNS = sql`p.account_id as accountid, p.account_name as accountname, p.status, p.rm, p.recruiter,
  p.isc::float8 as isc, p.liability, p.date_signed::text as datesigned, p.full_name as fullname,
  p.processing_email as processingemail, p.phone, p.billing_street as billingstreet, p.billing_city as billingcity,
  p.billing_state as billingstate, p.billing_zip as billingzip, p.operation_email as operationemail`;

/** The group fields in the spec's names; `g` is groups. */
const GROUP_COLUMNS = sql`g.group_sf_id, g.group_name as groupname, g.group_id as groupid, g.association_number,
  g.rev_share::float8 as rev_share, g.bank, g.profile, g.processor, g.effective_date::text as effectivedate`;

const like = (value: string) => `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Accounts matching a search text: account name, name, RM, or one of the account's group names or group IDs
 * starting with it (case-insensitive). Empty: every account. Each column is searched by its own prefix index
 * (2026_12_10_0030_partner_search) and the accounts found are put together: one condition over the five
 * (`a or b or …`) tested every account and group, 14 ms of the call's 29 at the xl scale (docs/bench.md).
 */
function matching(val: string): RawBuilder<unknown> {
  const text = val.trim();
  if (text === '') return sql`true`;
  const prefix = like(text);
  return sql`p.id in (
    select id from partners where lower(account_name) like ${prefix}
    union select id from partners where lower(full_name) like ${prefix}
    union select id from partners where lower(rm) like ${prefix}
    union select partner_id from groups where lower(group_name) like ${prefix}
    union select partner_id from groups where lower(group_id) like ${prefix})`;
}

/**
 * The group fields of the search reading's row (spec §3 partner row): GROUP_COLUMNS but the Salesforce ID,
 * association number and rev share.
 */
const DIRECTORY_GROUP_COLUMNS = sql`g.group_name as groupname, g.group_id as groupid, g.bank, g.profile,
  g.processor, g.effective_date::text as effectivedate`;

/**
 * One row per account-group pair (an account without groups: one row, group fields null), accounts in name
 * order and each account's rows together, so a page of them never splits an account, written as JSON by
 * PostgreSQL: read into objects, checked and written again by the server, the 447 rows of "pa" at the xl scale
 * took longer than finding them (docs/bench.md).
 */
async function directoryJson(db: Db, groupColumns: RawBuilder<unknown>, where: RawBuilder<unknown>) {
  const { rows } = await sql<{ json: string }>`
    select coalesce(json_agg(r order by r.accountname, r.accountid, r.effectivedate, r.groupid), '[]')::text as json
    from (select ${ACCOUNT_COLUMNS}, ${groupColumns} from partners p left join groups g on g.partner_id = p.id
          where ${where}) r`.execute(db);
  return rows[0]?.json ?? '[]';
}

/** GetPartners: the whole directory with every group field. */
export const accountGroupRowsJson = (db: Db): Promise<string> => directoryJson(db, GROUP_COLUMNS, sql`true`);

/** The search reading's rows (the partner row fields, spec §3) of the accounts matching `val` (empty: all). */
export const directoryRowsJson = async (db: Db, val = ''): Promise<JsonText<PartnerDirectoryRow[]>> =>
  jsonText(await directoryJson(db, DIRECTORY_GROUP_COLUMNS, matching(val)));

export async function partnerAccount(db: Db, accountId: string): Promise<PartnerAccount | null> {
  const { rows } = await sql<PartnerAccountGroupRow>`
    select ${ACCOUNT_COLUMNS}, ${GROUP_COLUMNS}
    from partners p left join groups g on g.partner_id = p.id
    where p.account_id = ${accountId}
    order by g.effective_date, g.group_id`.execute(db);
  const first = rows[0];
  if (!first) return null;
  const {
    group_sf_id: _sf,
    groupname: _n,
    groupid: _g,
    association_number: _a,
    rev_share: _r,
    bank: _b,
    profile: _p,
    processor: _pr,
    effectivedate: _e,
    ...account
  } = first;
  return {
    ...account,
    groups: rows.flatMap((r) =>
      r.group_sf_id === null || r.groupname === null || r.groupid === null
        ? []
        : [
            {
              group_sf_id: r.group_sf_id,
              groupname: r.groupname,
              groupid: r.groupid,
              association_number: r.association_number,
              rev_share: r.rev_share ?? 0,
              bank: r.bank,
              profile: r.profile,
              processor: r.processor ?? '',
              effectivedate: r.effectivedate ?? '',
            },
          ],
    ),
  };
}

/**
 * The latest allocated group IDs of each bank Add Group ID offers. Group IDs of a bank come from its sequence,
 * so the largest are the latest (compared as numbers: longer first, then by text).
 */
export async function lastGroupIds(db: Db, banks: readonly string[]): Promise<LastGroupIds> {
  const { rows } = await sql<{
    bank: string;
    accountname: string;
    group_id: string;
    association_number: string | null;
    groupname: string;
  }>`
    select r.bank, r.accountname, r.group_id, r.association_number, r.groupname from (
      select g.bank, p.account_name as accountname, g.group_id, g.association_number, g.group_name as groupname,
             row_number() over (partition by g.bank order by length(g.group_id) desc, g.group_id desc) as n
      from groups g join partners p on p.id = g.partner_id
      where g.bank = any(${sql.val([...banks])}::text[])
    ) r where r.n <= ${LAST_GROUP_IDS_PER_BANK}
    order by r.bank, r.n`.execute(db);
  const out: LastGroupIds = Object.fromEntries(banks.map((b) => [b, []]));
  for (const { bank, ...entry } of rows) out[bank]?.push(entry);
  return out;
}

export async function revShareHistory(db: Db, groupId: string): Promise<RevShareChange[] | null> {
  const group = await db.selectFrom('groups').select('id').where('group_id', '=', groupId).executeTakeFirst();
  if (!group) return null;
  const { rows } = await sql<RevShareChange>`
    select old_rev_share::float8 as old_rev_share, new_rev_share::float8 as new_rev_share, changed_by, changed_at
    from rev_share_history where group_row_id = ${group.id} order by changed_at desc, id desc`.execute(db);
  return rows;
}

/** The table reading: status as shown (Active, Inactive, anything else Dead). */
export const partnersSource: TableSource<PartnersColumn> = {
  def: partnersTable,
  expressions: {
    accountname: 'p.account_name',
    status: "(case when p.status in ('Active', 'Inactive') then p.status else 'Dead' end)",
    fullname: 'p.full_name',
    rm: 'p.rm',
    accountid: 'p.account_id',
  },
  from: 'partners p',
  searchable: ['accountname', 'fullname', 'rm'],
  tiebreak: 'p.id',
};
