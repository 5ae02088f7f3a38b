import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The ACH table's default order (file date, newest first) with each return's legal-name key in its index: a page
 * filtered by merchRejBal (a legal name's balance, in ach_legal_names) walks the returns in that order and keeps
 * those whose legal name is in the balance's range. It read each return's row for its key; with the key in the
 * index it reads the index alone (page 20 of 100 at the large scale: 165 buffers instead of 3,374; docs/bench.md).
 * The partner id also serves row-level security's check for an ISO-bound user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create index ach_returns_file_date_cover on ach_returns (file_creation_date desc nulls last, id desc nulls last)
       include (partner_id, legal_name)`,
    'drop index ach_returns_file_date',
    'alter index ach_returns_file_date_cover rename to ach_returns_file_date',
  ]);
}
