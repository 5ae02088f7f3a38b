import type { Kysely } from 'kysely';
import { finOptionsFunction } from './2026_12_11_0030_fin_options_columns';
import {
  changedBothWays,
  changedIds,
  ISO_ROLE,
  partsTriggerFunction,
  raiseParts,
  run,
  statementTriggers,
} from './helpers';

/**
 * The financial dashboard's filter values (/api/finoptions) in two kept answers (platform/answerCache.ts):
 *
 * - **the filter groups** (profiles, banks, MCCs and their descriptions, ISOs, opening months and years; version
 *   `fin_options`), raised as before by an insert or a delete of merchants, by an update changing a column they read
 *   (MCC, profile, sponsor bank, opening day, ISO), by a partner's new name and by any write to the MCC codes; no
 *   longer by a MID or DBA;
 * - **every merchant's MID and DBA** (`mid`, 4.7 MB of JSON at the large scale; version `fin_mids`), kept in parts:
 *   ranges of DBAs in the list's order, each from its bound in `fin_mid_bounds` to the next one, each with a
 *   version in `answer_part_versions` named by the part. A statement writing merchants raises the parts of the
 *   DBAs (before and after) of the rows it inserts or deletes, or whose MID, DBA or ISO it changes; the first ask
 *   after one merchant's rename reads its part's merchants again, not every merchant (1,000 of them, not 86,000).
 *   A truncate raises the answer's own version, which every part is checked against.
 *
 * The bounds are every 1,000th DBA in order (`paydesk_fin_mid_parts(size)`, run here, by the seed and hourly by the
 * job `financial.mid-parts`), drawn again only when a part has grown to twice that or the parts are twice as many
 * as needed; drawing them again raises the answer's own version. Any set of bounds is a valid division (the first is
 * always ''), so a writer that raises a part the bounds no longer hold only leaves a version row no part reads.
 * Nothing else writes the bounds: a part keeps its name over a new range, so new bounds need the answer's version
 * raised with them.
 */
const MID_PARTS = 'fin_mids';
/** The part of each DBA `dbas` selects (one text column): the last bound not after it. */
const partsOf = (dbas: string) =>
  raiseParts(
    MID_PARTS,
    `select (select b.part from fin_mid_bounds b where b.bound <= x.dba order by b.bound desc limit 1)
     from (${dbas}) x(dba)`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table fin_mid_bounds (part text primary key, bound text not null unique)`,
    `grant select on fin_mid_bounds to ${ISO_ROLE}`,
    `revoke insert, update, delete on fin_mid_bounds from ${ISO_ROLE}`,
    `insert into fin_mid_bounds (part, bound) values ('p000000', '')`,
    // The profiles and banks among every merchant, found by skipping through the pairs of them (20 at most).
    'create index merchants_profile_bank on merchants (profile, sponsor_bank)',
    `insert into answer_versions (name) values ('${MID_PARTS}')`,
    // Draws the bounds again when a part holds more than twice `size` merchants, or there are more than twice as
    // many parts as `size` asks for (and more than one); answers whether it did.
    `create function paydesk_fin_mid_parts(size integer) returns boolean language plpgsql security definer
       set search_path = public as $$
     declare
       largest bigint;
       parts bigint;
       merchants_count bigint;
     begin
       select coalesce(max(n), 0), count(*), coalesce(sum(n), 0) into largest, parts, merchants_count from (
         select count(m.mid) as n
         from (select bound, lead(bound) over (order by bound) as next from fin_mid_bounds) b
         left join merchants m on m.dba >= b.bound and (b.next is null or m.dba < b.next)
         group by b.bound) x;
       if largest <= 2 * size and (parts <= 1 or parts <= 2 * (merchants_count / size + 1)) then
         return false;
       end if;
       delete from fin_mid_bounds;
       insert into fin_mid_bounds (part, bound)
       select 'p' || lpad((row_number() over (order by bound))::text, 6, '0'), bound
       from (select '' as bound
             union
             select dba from (select dba, row_number() over (order by dba, mid) as n from merchants) x
             where n % size = 1 and n > 1) b;
       update answer_versions set version = version + 1 where name = '${MID_PARTS}';
       return true;
     end $$`,
    // Run by whoever may execute it, and PUBLIC may by default: only the owner (the seed, the job) draws bounds.
    'revoke execute on function paydesk_fin_mid_parts(integer) from public',
    'select paydesk_fin_mid_parts(1000)',
    // The filter groups: no longer raised by a MID or a DBA.
    finOptionsFunction(
      'paydesk_merchants_fin_options',
      changedIds(['mcc', 'profile', 'sponsor_bank', 'opened_on', 'partner_id']),
    ),
    partsTriggerFunction('paydesk_merchants_fin_mids', MID_PARTS, {
      insert: partsOf('select dba from new_rows'),
      update: partsOf(changedBothWays(['mid', 'dba', 'partner_id'], 'dba')),
      delete: partsOf('select dba from old_rows'),
    }),
    ...statementTriggers('merchants', 'fin_mids', 'paydesk_merchants_fin_mids'),
  ]);
}
