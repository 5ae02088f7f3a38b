import type { Kysely } from 'kysely';
import { monthPartsAnswer, run } from './helpers';

/**
 * A Self Serve page's count and totals kept between requests (platform/tableQuery.ts, KeptCounts; answer
 * `selfserve_counts`), per month shown: a statement writing Self Serve rows raises the version of each month it
 * writes (both the old and the new month of an update) in `answer_part_versions`, in the writing transaction; a
 * truncate raises the answer's own version, which every month is checked against too. Paging and sorting a filtered
 * month then count its rows once, and the live demo's writes to this month leave the past months' counts kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, monthPartsAnswer('selfserve_counts', 'selfserve_rows'));
}
