import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * The cached answers of ISO analytics and the executive ISO list (platform/answerCache.ts, docs/bi.md): one
 * version counter, raised by every statement that writes a table those answers read — the group rollups they
 * are computed from, and the records the rollups and the other branches read (merchants, their income, groups,
 * partners). The answers also depend on the day (who is open today); the cache keys them by it.
 */
const TABLES = ['bi_group_deals', 'bi_group_states', 'merchants', 'merchant_income', 'groups', 'partners'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, answerVersion('bi', TABLES));
}
