import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The merchants of some ISOs, with the columns the financial dashboard's filters read (profile, sponsor bank,
 * MCC, open date) and the id its monthly rows are found by, from the index alone. A filter in several groups
 * reads merchant rows (no single-dimension rollup answers it); with the ISOs chosen, the matching merchants are
 * found without visiting 24,000 wide merchant rows (large scale, three big ISOs: 64 ms → 9 ms). It replaces the
 * plain index on partner_id, which it serves as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index merchants_partner_filters on merchants (partner_id) include (id, profile, sponsor_bank, mcc, opened_on)',
    'drop index merchants_partner',
  ]);
}
