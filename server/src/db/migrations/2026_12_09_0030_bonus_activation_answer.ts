import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The bonus answers kept per scope (platform/answerCache.ts, 'bonus') now include the Activation tab's list, which
 * also reads the activation specifications: a statement writing them raises the version as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create trigger activation_specs_bonus_answer_version
       after insert or update or delete or truncate on activation_specs
       for each statement execute function paydesk_bump_answer_version('bonus')`,
  ]);
}
