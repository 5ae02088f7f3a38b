import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * The year's approvals to a day (/api/approvedYTD_Details, the YTD card's details: 3 MB at the large scale) kept
 * per scope and day until a statement writes an application, a merchant or a partner (platform/answerCache.ts).
 * Issue 18: 144 / 181 ms (p50 / p95) at the large scale before (docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, answerVersion('approvals', ['applications', 'merchants', 'partners']));
}
