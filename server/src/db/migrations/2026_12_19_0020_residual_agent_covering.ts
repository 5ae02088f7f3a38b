import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Residual Self Serve's agent filter finds a page's keys in an index alone. A page filtered by agent (and net) and
 * sorted by another column (DBA, the usual) read every matching row from the table for its sort: at the xl scale,
 * agents starting with "s" and a net of $100 or more matched 6,448 rows on 914 pages of the month. The new index
 * has the keys of `residuals_month_agent_net` and holds the agent itself (PostgreSQL reads an expression index
 * alone only when it holds the expression's columns; 2026_12_19_0010), the DBA and the key (the screen's sort and
 * its tiebreak) and the ISO (an ISO-bound user's row-level security): 384 pages and 3.6 ms for the page's keys,
 * against 18–26 ms for the whole request before.
 *
 * The narrower index stays for the count and totals, kept between requests, which sum eighteen columns and so
 * read the rows anyway. With the wide index alone the planner found them through the net's index instead (its
 * estimate of the wide index's cost), 5,314 pages and 45 ms against 914 pages and 14 ms.
 *
 * Made on `residuals`, so on every month's partition; a month imported later is built with it
 * (paydesk_residual_index copies the partitioned indexes' definitions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create index residuals_month_agent_page on residuals (month, lower(agent) text_pattern_ops, total_net)
       include (agent, dba, id, partner_id)`,
  ]);
}
