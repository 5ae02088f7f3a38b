import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The group rollups keep each row's closing days, sorted (`closings`), so that "open today" needs no refresh as
 * days pass: a row's merchants closed today are all of its closing days when the last one has come, which is
 * nearly always so (areas/bi/queries.ts, closedToday). Reading the last element and the count from the array took
 * two copies of it a row: the ISO analytics map reads every group-and-state row (67,675 at the xl scale), and that
 * test was 8 of its 22 ms. Each row now keeps the count and the last day beside the array, written by the database
 * from it (generated columns), so no writer can let them disagree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    ['bi_group_deals', 'bi_group_totals', 'bi_group_states'].map(
      (t) => `alter table ${t}
        add column closed integer generated always as (cardinality(closings)) stored,
        add column last_closing date generated always as (closings[cardinality(closings)]) stored`,
    ),
  );
}
