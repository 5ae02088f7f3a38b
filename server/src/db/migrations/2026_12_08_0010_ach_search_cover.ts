import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The ACH search box matches a prefix of the MID, the DBA or the legal name (areas/ach/table.ts). Asked as one
 * condition (`a or b or c`), PostgreSQL found the rows through the three prefix indexes and then read every one
 * from the table and tested the three prefixes again: at the large scale "sm" matches 5,552 returns on 1,262 pages,
 * 10–18 ms for the count and its five totals, and the page sorted by DBA walked that index past 5,700 rows.
 *
 * Each prefix index now also holds what a searched page and its count read (the return's id, ISO, DBA, file date
 * and the five money columns), and the table toolkit asks a search as one index scan per column, their rows put
 * together by id (platform/tableQuery.ts, `searchIndexed`): the index alone answers the count (4 ms) and the
 * page's order (5 ms), and only the page's own rows are read from the table. The column itself is included because
 * PostgreSQL reads an expression index alone only when the query's columns are in it.
 */
const INCLUDE =
  'id, partner_id, dba_name, file_creation_date, transaction_amount, used_rsv, re_ran, sent_to_coll, write_off';

export async function up(db: Kysely<unknown>): Promise<void> {
  const covered = (name: string, column: string) => [
    `create index ${name}_cover on ach_returns (lower(${column}) text_pattern_ops) include (${column === 'dba_name' ? '' : `${column}, `}${INCLUDE})`,
    `drop index ${name}`,
    `alter index ${name}_cover rename to ${name}`,
  ];
  await run(db, [
    ...covered('ach_returns_mid_prefix', 'mid'),
    ...covered('ach_returns_dba_prefix', 'dba_name'),
    ...covered('ach_returns_legal_prefix', 'legal_name'),
  ]);
}
