import type { Kysely } from 'kysely';
import { partsTriggerFunction, raiseParts, run, statementTriggers } from './helpers';

/**
 * A Self Serve page's count and totals kept between requests (platform/tableQuery.ts, KeptCounts; answer
 * `selfserve_counts`), per month shown: a statement writing Self Serve rows raises the version of each month it
 * writes (both the old and the new month of an update) in `answer_part_versions`, in the writing transaction; a
 * truncate raises the answer's own version, which every month is checked against too. Paging and sorting a filtered
 * month then count its rows once, and the live demo's writes to this month leave the past months' counts kept.
 */
const months = (rows: string) =>
  raiseParts('selfserve_counts', `select m::text from (select distinct month from ${rows}) d(m)`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `insert into answer_versions (name) values ('selfserve_counts')`,
    partsTriggerFunction('paydesk_selfserve_counts_parts', 'selfserve_counts', {
      insert: months('new_rows'),
      update: months('(select month from new_rows union all select month from old_rows) r'),
      delete: months('old_rows'),
    }),
    ...statementTriggers('selfserve_rows', 'counts_parts', 'paydesk_selfserve_counts_parts'),
  ]);
}
