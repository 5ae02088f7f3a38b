import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The bonus rows that match an earlier one (their kept `matches_all`, 2026_12_05_0010), so GetMatches joins those
 * few hundred to their matches instead of every row to every row at its address: 41,000 rows at the large scale,
 * 351 of them with a match (62 ms → docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create index bonus_rows_matched on bonus_rows (bonus_date desc, mid)
       where matches_all > 0 and period in ('W', 'M')`,
  ]);
}
