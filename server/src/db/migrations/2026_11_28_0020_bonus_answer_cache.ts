import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * The kept answer of a bonus window (GetBonus; platform/answerCache.ts): one version counter, raised by every
 * statement that writes a table the answer reads — the bonus rows, their merchants and ISOs, and the daily and
 * monthly figures its volume and last deposit are summed from (issue 18).
 */
const TABLES = ['bonus_rows', 'merchants', 'partners', 'merchant_daily', 'merchant_monthly'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, answerVersion('bonus', TABLES));
}
