import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The merchants' group index carries each merchant's MCC, so GetMCC (a group choice's merchants counted per
 * MCC) is counted from the index alone instead of reading every merchant's row (issue 18). The key is unchanged,
 * so every query that found merchants by group still does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index merchants_group_mcc on merchants (group_id) include (mcc)',
    'drop index merchants_group',
  ]);
}
