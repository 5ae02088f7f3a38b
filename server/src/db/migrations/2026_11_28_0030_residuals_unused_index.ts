import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * residuals_mid_prefix (mid text_pattern_ops, from the first residuals migration) served a case-sensitive MID
 * prefix over every month. Every MID search and filter of the Residual table is by month and lower(mid), which
 * residuals_month_mid (2026_11_21_0019) serves; nothing else reads residuals by MID. The unused index only
 * cost every imported row one more index entry (issue 18: 100,000 rows within 6 s).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, ['drop index residuals_mid_prefix']);
}
