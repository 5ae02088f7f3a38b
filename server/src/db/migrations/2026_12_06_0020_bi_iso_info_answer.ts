import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * GetAllInformation (areas/bi/queries.ts, allInformationJson) read 20 columns of every ISO's kept figures and wrote
 * them as JSON in the server: at the xl scale 2,900 ISOs, 58,000 values through the driver, 25 of the call's 32 ms
 * when first asked after a change. Each row of bi_iso_info now keeps its figures' JSON as the answer writes them
 * (`answer`: from `"approved_deals":` to the closing brace), written by a row trigger as the row is written, so a
 * refresh, the daily rebuild and any other write keep it true. The call joins each to its ISO's name and group IDs.
 *
 * The ISO's group IDs are joined in order from an index on (partner_id, group_id), not sorted for each ISO.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'alter table bi_iso_info add column answer text',
    `create function paydesk_bi_iso_info_answer() returns trigger language plpgsql as $$
     begin
       new.answer := (select substr(row_to_json(x)::text, 2) from (select
         new.approved_deals as approved_deals, new.first::text as first_deal, new.last::text as last_deal,
         case when new.approved_deals > 1
           then round((new.last - new.first)::numeric / (new.approved_deals - 1), 1)::text end as average_days_bw_deals,
         new.open_deals as open_deals, new.closed_deals as closed_deals, new.open_longest as open_longest,
         new.open_shortest as open_shortest, new.closed_longest as closed_longest,
         new.closed_shortest as closed_shortest, new.open_age_set as open_age_set,
         new.closed_age_set as closed_age_set, new.cbcal as cbcal, new.esquire as esquire,
         new.chesapeake as chesapeake, new.pl_count as pl_count, new.tr_count as tr_count, new.hr_count as hr_count,
         new.ns_count as ns_count) x);
       return new;
     end $$`,
    `create trigger bi_iso_info_answer before insert or update on bi_iso_info
       for each row execute function paydesk_bi_iso_info_answer()`,
    'update bi_iso_info set answer = null',
    'alter table bi_iso_info alter column answer set not null',
    'create index groups_partner_group on groups (partner_id, group_id)',
    'drop index groups_partner',
  ]);
}
