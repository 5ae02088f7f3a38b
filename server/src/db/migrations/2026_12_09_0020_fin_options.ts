import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * The financial dashboard's filter values (/api/finoptions), asked before its figures: every merchant's MID and
 * DBA in order come from an index of them (with the ISO, so an ISO-bound user's rows are found in it as well),
 * not from a sort of every merchant; and the answer is kept per scope until a statement writes a merchant, a
 * partner or an MCC (platform/answerCache.ts). Issue 18: 380 ms at the large scale before (docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index merchants_dba_mid on merchants (dba, mid) include (partner_id)',
    ...answerVersion('fin_options', ['merchants', 'partners', 'mcc_codes']),
  ]);
}
