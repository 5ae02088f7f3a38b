import type { Kysely } from 'kysely';
import { queueWrites, run, WRITE_QUEUE_FUNCTION, WRITE_QUEUE_LOCK } from './helpers';

/**
 * One queue for the writers of kept answers and of derived data's sources. A statement writing such a table raises
 * answer versions (one row per answer, or per part, that it holds until it commits), and a writer of the sources
 * then refreshes the derived tables, which raises more. Two writers each holding some of those rows and waiting for
 * the other's were a deadlock: a merchant edit raised `bi` and waited for `bonus`, held by a refresh of the monthly
 * figures that then wrote the BI rollups and waited for `bi`. A statement-level BEFORE trigger on each of these
 * tables now takes the transaction-level advisory lock that refreshes queue on (db/derived.ts) before the statement
 * touches a row, so such writers run one after the other from their first write; readers never take it.
 */
const TABLES = [
  // Sources of derived data (db/derived.ts, SOURCE_TABLES).
  'merchant_daily',
  'merchant_monthly',
  'merchant_income',
  'merchants',
  'partners',
  'groups',
  'residuals',
  'adjustments',
  // The other tables whose writes raise a kept answer's version.
  'activation_specs',
  'applications',
  'bi_group_deals',
  'bi_group_states',
  'bi_group_totals',
  'bonus_rows',
  'clawback_rows',
  'crm_leads',
  'mcc_codes',
  'pci_billing',
  'pci_merchants',
  'selfserve_rows',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create function ${WRITE_QUEUE_FUNCTION}() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       perform pg_advisory_xact_lock(${WRITE_QUEUE_LOCK}::bigint);
       return null;
     end $$`,
    ...TABLES.map(queueWrites),
  ]);
}
