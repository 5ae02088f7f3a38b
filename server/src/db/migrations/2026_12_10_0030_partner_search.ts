import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * /api/searchpartner finds accounts whose name, contact name or RM, or one of whose group names or group IDs,
 * starts with the text: one prefix index per column (the account name's was there before), each searched on its own and the
 * accounts put together (areas/partners/queries.ts). Issue 18: 22.9 / 28.9 ms at the xl scale before (docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index partners_full_name_lower on partners (lower(full_name) text_pattern_ops)',
    'create index partners_rm_lower on partners (lower(rm) text_pattern_ops)',
    'create index groups_group_name_lower on groups (lower(group_name) text_pattern_ops)',
    'create index groups_group_id_lower on groups (lower(group_id) text_pattern_ops)',
  ]);
}
