import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The table toolkit orders `desc nulls last` and ends every order with the table's tiebreak, so an index can
 * serve a sorted page only if it has the same order and the tiebreak: PostgreSQL's plain `desc` index is
 * nulls first and cannot. These replace the month indexes of the residuals and selfserve_rows migrations with matching ones,
 * for the default sorts and the most used numeric sorts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'drop index if exists selfserve_rows_volume',
    'create index selfserve_rows_volume on selfserve_rows (month, tx_amt desc nulls last, merchant_id)',
    'create index selfserve_rows_income on selfserve_rows (month, income desc nulls last, merchant_id)',
    'create index selfserve_rows_transactions on selfserve_rows (month, tx_cnt desc nulls last, merchant_id)',
    'drop index if exists residuals_month_net',
    'create index residuals_month_net on residuals (month, total_net desc nulls last, id)',
    'create index residuals_month_volume on residuals (month, volume desc nulls last, id)',
  ]);
}
