import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';
import type { Crm, CrmAccount, CrmGroup } from '../../platform/crm';
import { defineJob, type JobContext } from '../../platform/jobs';

const ACCOUNT_FIELDS = [
  'account_name',
  'status',
  'rm',
  'recruiter',
  'isc',
  'liability',
  'date_signed',
  'full_name',
  'processing_email',
  'phone',
  'billing_street',
  'billing_city',
  'billing_state',
  'billing_zip',
  'operation_email',
] as const satisfies readonly (keyof CrmAccount)[];

const GROUP_FIELDS = [
  'group_name',
  'group_id',
  'association_number',
  'rev_share',
  'bank',
  'profile',
  'processor',
  'effective_date',
] as const satisfies readonly (keyof CrmGroup)[];

const list = (names: readonly string[], prefix: string) =>
  sql.raw(names.map((n) => `${prefix}${n}`).join(', '));

export interface ImportCounts {
  accountsAdded: number;
  accountsChanged: number;
  accountsInactivated: number;
  groupsAdded: number;
  groupsChanged: number;
  groupsRemoved: number;
  /** Groups of accounts the CRM does not list as partners: not imported. */
  groupsSkipped: number;
}

/** Reads every page of the CRM into a temporary table of the transaction (one statement per page). */
async function stage<T>(
  db: Db,
  table: string,
  like: string,
  pages: AsyncIterable<T[]>,
  onPage: (rows: number) => void,
): Promise<number> {
  await sql.raw(`create temporary table ${table} (like ${like}) on commit drop`).execute(db);
  let n = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    await sql`insert into ${sql.table(table)}
      select * from jsonb_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(page)}::jsonb)`.execute(
      db,
    );
    n += page.length;
    onPage(n);
  }
  return n;
}

const changed = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0n);

/**
 * Applies the CRM's accounts and groups to partners and groups in the caller's transaction: new ones are
 * inserted, changed ones updated (a changed rev share into its history), accounts the CRM no longer has
 * marked Inactive, groups it no longer has removed unless merchants or applications use them. Only real
 * differences are written, so running it again changes nothing.
 */
export async function importFromCrm(
  db: Db,
  crm: Crm,
  progress: (percent: number, message: string) => void = () => {},
): Promise<ImportCounts> {
  progress(1, 'Reading accounts from the CRM');
  const accounts = await stage(db, 'crm_import_accounts', 'crm_accounts', crm.accounts(db), (n) =>
    progress(Math.min(30, 1 + Math.round(n / 100)), `Read ${n} accounts`),
  );
  progress(30, `Read ${accounts} accounts; reading groups`);
  const groups = await stage(db, 'crm_import_groups', 'crm_groups', crm.groups(db), (n) =>
    progress(Math.min(60, 30 + Math.round(n / 200)), `Read ${n} groups`),
  );
  await sql`create unique index on crm_import_accounts (account_id)`.execute(db);
  await sql`create unique index on crm_import_groups (group_sf_id)`.execute(db);
  progress(60, `Read ${accounts} accounts and ${groups} groups; applying`);

  const a = ACCOUNT_FIELDS;
  const accountsAdded = changed(
    await sql`insert into partners (account_id, ${list(a, '')})
      select s.account_id, ${list(a, 's.')} from crm_import_accounts s
      where not exists (select 1 from partners p where p.account_id = s.account_id)`.execute(db),
  );
  const accountsChanged = changed(
    await sql`update partners p set ${sql.raw(a.map((f) => `${f} = s.${f}`).join(', '))}
      from crm_import_accounts s
      where p.account_id = s.account_id and (${list(a, 'p.')}) is distinct from (${list(a, 's.')})`.execute(
      db,
    ),
  );
  const accountsInactivated = changed(
    await sql`update partners p set status = 'Inactive'
      where p.status = 'Active' and not exists (select 1 from crm_import_accounts s where s.account_id = p.account_id)`.execute(
      db,
    ),
  );
  progress(75, 'Accounts applied; applying groups');

  const g = GROUP_FIELDS;
  const groupsSkipped = Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from crm_import_groups s
        where not exists (select 1 from partners p where p.account_id = s.account_id)`.execute(db)
    ).rows[0]?.n ?? 0,
  );
  // A rev share the CRM changed is kept in the history, like an edit on the screen.
  await sql`insert into rev_share_history (partner_id, group_row_id, old_rev_share, new_rev_share, changed_by)
    select gr.partner_id, gr.id, gr.rev_share, s.rev_share, 'CRM import'
    from groups gr join crm_import_groups s on s.group_sf_id = gr.group_sf_id
    where gr.rev_share is distinct from s.rev_share`.execute(db);
  const groupsChanged = changed(
    await sql`update groups gr set partner_id = p.id, ${sql.raw(g.map((f) => `${f} = s.${f}`).join(', '))}
      from crm_import_groups s join partners p on p.account_id = s.account_id
      where gr.group_sf_id = s.group_sf_id
        and (gr.partner_id, ${list(g, 'gr.')}) is distinct from (p.id, ${list(g, 's.')})`.execute(db),
  );
  const added = await sql<{ id: number; partner_id: number; rev_share: string }>`
    insert into groups (partner_id, group_sf_id, ${list(g, '')})
    select p.id, s.group_sf_id, ${list(g, 's.')}
    from crm_import_groups s join partners p on p.account_id = s.account_id
    where not exists (select 1 from groups gr where gr.group_sf_id = s.group_sf_id)
    returning id, partner_id, rev_share`.execute(db);
  if (added.rows.length > 0)
    await sql`insert into rev_share_history (partner_id, group_row_id, old_rev_share, new_rev_share, changed_by)
      select r.partner_id, r.id, null, r.rev_share, 'CRM import'
      from jsonb_to_recordset(${JSON.stringify(added.rows)}::jsonb) as r(id int, partner_id int, rev_share numeric)`.execute(
      db,
    );
  // Groups merchants or applications point at stay: deleting them would orphan merchants' history.
  const groupsRemoved = changed(
    await sql`delete from groups gr
      where not exists (select 1 from crm_import_groups s where s.group_sf_id = gr.group_sf_id)
        and not exists (select 1 from merchants m where m.group_id = gr.group_id)
        and not exists (select 1 from applications x where x.group_id = gr.group_id)`.execute(db),
  );
  // The banks' sequences continue after the highest numbers the CRM holds, so Add Group ID never collides.
  await sql`update group_id_sequences q set
      next_group_id = greatest(q.next_group_id, m.max_group + 1),
      next_association = greatest(q.next_association, m.max_association + 1)
    from (select bank,
            max(case when group_id ~ '^[0-9]{1,15}$' then group_id::bigint end) as max_group,
            max(case when association_number ~ '^[0-9]{1,15}$' then association_number::bigint end) as max_association
          from groups group by bank) m
    where m.bank = q.bank and (m.max_group >= q.next_group_id or m.max_association >= q.next_association)`.execute(
    db,
  );
  progress(100, 'Done');
  return {
    accountsAdded,
    accountsChanged,
    accountsInactivated,
    groupsAdded: added.rows.length,
    groupsChanged,
    groupsRemoved,
    groupsSkipped,
  };
}

export function describeCounts(c: ImportCounts): string {
  const skipped = c.groupsSkipped > 0 ? `; ${c.groupsSkipped} groups of unknown accounts skipped` : '';
  return (
    `Accounts: ${c.accountsAdded} added, ${c.accountsChanged} changed, ${c.accountsInactivated} marked inactive; ` +
    `groups: ${c.groupsAdded} added, ${c.groupsChanged} changed, ${c.groupsRemoved} removed${skipped}`
  );
}

/**
 * Import from Salesforce (spec document 2 §4): the whole run is one transaction (platform/jobs.ts), so a CRM
 * that fails halfway, or a killed run, leaves the partners as they were. Not retried: whoever started it sees
 * it stopped and may start it again (or an admin reruns it from the Jobs screen).
 */
export function partnersImportJob(crm: Crm) {
  return defineJob({
    name: 'partners.import',
    payload: z.strictObject({}),
    describe: () => `From the ${crm.kind === 'salesforce' ? 'Salesforce' : 'sandbox'} CRM`,
    retryLimit: 0,
    retryDelaySeconds: 30,
    retryBackoff: false,
    timeoutSeconds: 600,
    run: async (ctx: JobContext) => {
      const counts = await importFromCrm(ctx.db, crm, (p, m) => ctx.progress(p, m));
      const user =
        ctx.startedBy === null
          ? undefined
          : await ctx.db
              .selectFrom('users')
              .select(['id', 'email'])
              .where('id', '=', ctx.startedBy)
              .executeTakeFirst();
      await audit(ctx.db, {
        actor: user ?? null,
        action: 'partner.import',
        subject: crm.kind === 'salesforce' ? 'Salesforce' : 'Sandbox CRM',
        details: { ...counts },
      });
      return describeCounts(counts);
    },
  });
}
