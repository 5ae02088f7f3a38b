import type { Kysely } from 'kysely';
import { days } from './2026_12_11_0010_approvals_parts';
import {
  changedIds,
  definerFunction,
  keepingTriggers,
  keptForIso,
  partsTriggerFunction,
  queueWrites,
  run,
  statementTriggers,
} from './helpers';

/**
 * The year's approvals (/api/approvedYTD_Details, and a card's detail modal asking a month or a day) kept per
 * approval by the writes, in `approval_rows`: each approved application's JSON from `id` through `ISO`, without the
 * closing brace (`head`). The request adds the approval day, which it names in its own session's time zone as
 * before, and joins the rows of a part in order.
 *
 * The answer was written from applications, their merchants and their ISOs at every first ask of a part: a month's
 * 1,756 approvals at the large scale took 15–19 ms of statement (the merchants looked up by key 7 ms, the JSON 7 ms),
 * and every month after a truncate, 3 MB for the year, 150 ms (docs/bench.md).
 *
 * An ISO-bound user read the merchant of an approval through row-level security: a merchant since moved to another
 * ISO was not found, and the row showed no MID and the application's DBA. `head_iso` keeps the row so, for the
 * approvals whose merchant is under another ISO (null otherwise); the request reads it when row-level security is
 * active.
 *
 * What writes a row (statement triggers, with the transition tables):
 * - applications: the rows inserted, deleted, or whose approval instant, merchant, ISO, DBA, sponsor bank or profile
 *   changed (a row leaves when its application is no longer approved);
 * - merchants: the approvals of the merchants whose MID, DBA or ISO changed;
 * - partners: the approvals of an ISO renamed;
 * - a truncate of any of these: every row again.
 * A row written again as it was is left alone. A statement writing rows raises the days of its old and new rows (the
 * parts of 2026_12_11_0010, whose triggers on the three tables these replace). The seed holds these triggers while
 * it loads and writes every row once at the end (seed/bulk.ts, holdKeptRowTriggers).
 */
const APPLICATION = ['approved_at', 'merchant_id', 'partner_id', 'dba', 'sponsor_bank', 'profile'];

/** The trigger function of a source table and its triggers (helpers.ts, keepingTriggers). */
const keeper = (table: string, ids: Parameters<typeof keepingTriggers>[3]) =>
  keepingTriggers('paydesk_approval_keep', 'approval_keep', table, ids);

const approvalsOf = (column: 'merchant_id' | 'partner_id', ids: string) =>
  `select a.id from applications a where a.${column} in (${ids}) and a.approved_at is not null`;

/** A row's JSON up to its ISO: `mid` and `dba` as read (the merchant's, else null and the application's). */
const head = (
  mid: string,
  dba: string,
) => `concat('{"id":', a.id, ',"MID":', coalesce(to_json(${mid})::text, 'null'),
  ',"DBA":', to_json(${dba})::text, ',"SponsorBank":', to_json(a.sponsor_bank)::text,
  ',"profile":', to_json(a.profile)::text, ',"ISO":', to_json(p.account_name)::text)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table approval_rows (
       application_id integer primary key,
       partner_id integer not null,
       approved_at timestamptz not null,
       head text not null,
       head_iso text
     )`,
    // A range of approval instants, newest first and then by application.
    'create index approval_rows_at on approval_rows (approved_at, application_id)',
    definerFunction(
      'paydesk_approval_keep',
      'ids integer[]',
      'void',
      `begin
         if ids is null then
           delete from approval_rows;
         else
           if cardinality(ids) = 0 then
             return;
           end if;
           delete from approval_rows r where r.application_id = any(ids)
             and not exists (select 1 from applications a where a.id = r.application_id and a.approved_at is not null);
         end if;
         insert into approval_rows as r (application_id, partner_id, approved_at, head, head_iso)
         select a.id, a.partner_id, a.approved_at, ${head('m.mid', 'coalesce(m.dba, a.dba)')},
           case when m.partner_id <> a.partner_id then ${head('null::text', 'a.dba')} end
         from applications a
         join partners p on p.id = a.partner_id
         left join merchants m on m.id = a.merchant_id
         where a.approved_at is not null and (ids is null or a.id = any(ids))
         -- In the order a range reads them: rows written at once lie in approval order (new approvals come last
         -- anyway), so a month's rows are a few pages, not a page each (14-16 ms against 8 ms for 5,200 rows at xl).
         order by a.approved_at, a.id
         on conflict (application_id) do update set partner_id = excluded.partner_id,
           approved_at = excluded.approved_at, head = excluded.head, head_iso = excluded.head_iso
         where (r.partner_id, r.approved_at, r.head, r.head_iso)
           is distinct from (excluded.partner_id, excluded.approved_at, excluded.head, excluded.head_iso);
       end`,
    ),
    ...keeper('applications', {
      insert: 'select id from new_rows where approved_at is not null',
      update: `select id from (${changedIds(APPLICATION)}) c
        union select id from (select id from old_rows except select id from new_rows) gone`,
      delete: 'select id from old_rows',
    }),
    ...keeper('merchants', {
      update: approvalsOf('merchant_id', changedIds(['mid', 'dba', 'partner_id'])),
      delete: approvalsOf('merchant_id', 'select id from old_rows'),
    }),
    ...keeper('partners', {
      update: approvalsOf('partner_id', changedIds(['account_name'])),
      delete: approvalsOf('partner_id', 'select id from old_rows'),
    }),
    'select paydesk_approval_keep(null)',
    // The days of the rows a statement writes, in place of 2026_12_11_0010's triggers on the applications, merchants
    // and partners: the rows are what the answer reads, and a merchant moved to another ISO (which changes its
    // approvals as that ISO's users read them) raised no day there.
    ...['applications', 'merchants', 'partners'].flatMap((table) => [
      ...['insert', 'update', 'delete', 'truncate'].map(
        (kind) => `drop trigger ${table}_approvals_parts_${kind} on ${table}`,
      ),
      `drop function paydesk_${table}_approvals_parts()`,
    ]),
    partsTriggerFunction('paydesk_approval_rows_parts', 'approvals', {
      insert: days('select approved_at from new_rows'),
      update: days('select approved_at from new_rows union all select approved_at from old_rows'),
      delete: days('select approved_at from old_rows'),
    }),
    ...statementTriggers('approval_rows', 'parts', 'paydesk_approval_rows_parts'),
    queueWrites('approval_rows'),
  ]);
  await keptForIso(db, 'approval_rows');
}
