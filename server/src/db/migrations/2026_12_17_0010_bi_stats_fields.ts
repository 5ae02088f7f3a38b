import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * ISO analytics' stats (areas/bi/queries.ts): every group's row was rounded and written as JSON on each first ask,
 * about 40 ms of the 60 ms statement for 5,542 groups at the xl scale. A group's fields that depend on its own
 * deals alone (first and last deal, days between deals, open and approved deals, retention and the per-deal
 * figures) are now written once, as JSON text, with its row of `bi_group_totals` (`stats_fields`, by the refreshes
 * that write the row: db/derived.ts, insertBiDeals). The request adds the group's and ISO's names and the ISO's
 * house profit, which other rows change.
 *
 * One function writes the fields, for the kept rows and for the rows worked out when asked (a window that cuts a
 * group's months, groups that share a name, a merchant that closes after today), so both read the same. The kept
 * text counts every closing as past (open = approved − closed): the request reads it only when the group's last
 * closing is today or earlier, so it needs no refresh as days pass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create function paydesk_bi_stats_fields(approved bigint, open bigint, first date, last date, net numeric,
       payouts numeric) returns text language sql stable parallel safe as $$
       select concat(
         '"first":', coalesce(to_json(first::text)::text, 'null'),
         ',"last":', coalesce(to_json(last::text)::text, 'null'),
         ',"avgdaysbw":', coalesce(to_json(case when approved > 1
           then round((last - first)::numeric / (approved - 1), 1)::text end)::text, 'null'),
         ',"openCount":', open,
         ',"approvedCount":', approved,
         ',"retentionPercent":', coalesce(to_json(case when approved > 0
           then round(open * 100.0 / approved, 1)::text end)::text, 'null'),
         ',"TotalIncomePerDeal":', coalesce(to_json(case when approved > 0
           then round(net / approved, 2)::text end)::text, 'null'),
         ',"ISOProfitPerDeal":', coalesce(to_json(case when approved > 0
           then round(payouts / approved, 2)::text end)::text, 'null'),
         ',"HouseProfitPerDeal":', coalesce(to_json(case when approved > 0
           then round((net - payouts) / approved, 2)::text end)::text, 'null'))
     $$`,
    'alter table bi_group_totals add column stats_fields text',
    `update bi_group_totals
     set stats_fields = paydesk_bi_stats_fields(approved, approved - closed, first, last, net, payouts)`,
    'alter table bi_group_totals alter column stats_fields set not null',
  ]);
}
