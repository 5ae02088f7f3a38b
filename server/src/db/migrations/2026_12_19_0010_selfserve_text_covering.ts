import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Self Serve's text filters (ISO name, DBA) read from their index alone. The ISO name's index was meant to cover a
 * filtered month's count and totals (2026_11_27_0010_month_totals) but did not: it is an index on
 * `lower(groupname)`, and PostgreSQL reads an expression index without the table only when the index also holds the
 * columns the expression is made of (here `groupname`), so every matching row was fetched from the table, one page
 * each. At the xl scale an ISO name starting with "a" and a volume of $10,000 or more matched 5,390 rows: 6,700 pages
 * and 25–35 ms for the page and the count, against 110 pages and 3.8 ms with this index.
 *
 * Both indexes now hold their own column, the row's key (a page's keys are found in the index, then its 25 rows
 * read), its ISO (an ISO-bound user's row-level security tests it), the opened date (a sort the screen offers) and
 * the summed columns.
 */
const COVERED = 'merchant_id, partner_id, opend, tx_amt, tx_cnt, cb_amt, cb_cnt, ref_amt, ref_cnt, income';

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'drop index selfserve_rows_iso',
    `create index selfserve_rows_iso on selfserve_rows (month, lower(groupname) text_pattern_ops)
       include (groupname, ${COVERED})`,
    'drop index selfserve_rows_dba',
    `create index selfserve_rows_dba on selfserve_rows (month, lower(dba) text_pattern_ops)
       include (dba, ${COVERED})`,
  ]);
}
