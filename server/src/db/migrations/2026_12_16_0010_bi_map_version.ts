import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * ISO analytics' map (open merchants per state, areas/bi/queries.ts, keptMap) kept between answers: a version of
 * its own, raised by every statement that writes `bi_group_states`, the group rollup it alone is read from. The
 * table's writers already queue (2026_12_15_0010); the map also depends on the day, which the server keys it by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, answerVersion('bi_map', ['bi_group_states']));
}
