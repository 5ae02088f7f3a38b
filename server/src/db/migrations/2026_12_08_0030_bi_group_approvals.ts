import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * ISO analytics' graph (approvals per group and month) read every group's rows of `bi_group_deals` and put each
 * group's months and counts into two arrays, as text (areas/bi/queries.ts, approvalsGraph): 85,847 rows at the xl
 * scale, 25–41 ms, and the stats and the map wait for it on the request's connection. A group's row of
 * `bi_group_totals` is written with its deals' rows, by the same refreshes (db/derived.ts, insertBiDeals), so it now
 * keeps those two texts too: the months (days from 2000-01-01 of each month's first day) and the deals approved in
 * each, in month order. The graph reads one row per group.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'alter table bi_group_totals add column approval_months text, add column approval_counts text',
    `update bi_group_totals t set approval_months = d.months, approval_counts = d.counts
     from (select group_id, array_agg(month - date '2000-01-01' order by month)::text as months,
                  array_agg(approved order by month)::text as counts
           from bi_group_deals group by group_id) d
     where d.group_id = t.group_id`,
    `update bi_group_totals set approval_months = '{}', approval_counts = '{}' where approval_months is null`,
    'alter table bi_group_totals alter column approval_months set not null, alter column approval_counts set not null',
  ]);
}
