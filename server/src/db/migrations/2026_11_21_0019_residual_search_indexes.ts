import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Residual Self Serve's text filters and search (MID, DBA, agent) by prefix within a month: indexes on the
 * same lower(…) expressions the table toolkit filters with, led by the month.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index residuals_month_agent on residuals (month, lower(agent) text_pattern_ops)',
    'create index residuals_month_dba on residuals (month, lower(dba) text_pattern_ops)',
    'create index residuals_month_mid on residuals (month, lower(mid) text_pattern_ops)',
  ]);
}
