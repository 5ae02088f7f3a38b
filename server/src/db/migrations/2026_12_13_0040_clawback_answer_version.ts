import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The bonus answers kept per scope (platform/answerCache.ts, 'bonus') now include a clawback run's rows
 * (GetClawback), which also read the clawback rows: a statement writing them (a run, a do-not-clawback mark)
 * raises the version as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create trigger clawback_rows_bonus_answer_version
       after insert or update or delete or truncate on clawback_rows
       for each statement execute function paydesk_bump_answer_version('bonus')`,
  ]);
}
