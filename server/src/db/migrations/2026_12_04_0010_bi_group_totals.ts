import type { Kysely } from 'kysely';
import { ISO_ROLE, run, scopeToIso } from './helpers';

/**
 * ISO analytics' stats sum each group's deals of the months chosen from `bi_group_deals` (36,000 rows at the large
 * scale): 20 ms of the 38 ms statement that the every-group answer runs when first asked after a change. The usual
 * question spans every month a group has deals (May 2016 to now), so `bi_group_totals` keeps each group's deals of
 * all its months, with the first and last month they span: a group whose months all fall within the months chosen
 * is read from here, the others are summed from `bi_group_deals` as before (areas/bi/queries.ts). Kept with
 * `bi_group_deals` by the same refreshes (db/derived.ts), filled here from it. Row-level security as the other
 * group rollups; only the refreshes write it (they refuse to run under the ISO role). It raises the `bi` answer
 * version like the other tables ISO analytics reads (migration 2026_11_26_0010).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table bi_group_totals (
       group_id text primary key,
       partner_id integer not null,
       first_month date not null,
       last_month date not null,
       approved bigint not null,
       first date not null,
       last date not null,
       net numeric not null,
       payouts numeric not null,
       closings date[] not null
     )`,
    `insert into bi_group_totals (group_id, partner_id, first_month, last_month, approved, first, last, net, payouts,
       closings)
     select d.group_id, min(d.partner_id), min(d.month), max(d.month), sum(d.approved), min(d.first), max(d.last),
            sum(d.net), sum(d.payouts),
            coalesce((select array_agg(c order by c) from bi_group_deals d2, unnest(d2.closings) c
                      where d2.group_id = d.group_id), '{}')
     from bi_group_deals d
     group by d.group_id`,
    `create trigger bi_group_totals_bi_answer_version after insert or update or delete or truncate on bi_group_totals
       for each statement execute function paydesk_bump_answer_version('bi')`,
  ]);
  await scopeToIso(db, 'bi_group_totals');
  await run(db, [
    `grant select on bi_group_totals to ${ISO_ROLE}`,
    `revoke insert, update, delete on bi_group_totals from ${ISO_ROLE}`,
  ]);
}
