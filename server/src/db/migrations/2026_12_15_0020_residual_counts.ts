import type { Kysely } from 'kysely';
import { definerFunction, monthPartsAnswer, raiseParts, run, WRITE_QUEUE_LOCK } from './helpers';

/**
 * A Residual Self Serve page's count and totals kept between requests (platform/tableQuery.ts, KeptCounts; answer
 * `residual_counts`), per month shown, as Self Serve's are (2026_12_14_0010): a statement writing residuals through
 * the partitioned table raises the version of each month it writes (the old and the new month of an update), a
 * truncate the answer's own. A month new to the table is a build table attached as its partition
 * (`paydesk_residual_publish`, 2026_12_08_0040), which fires no trigger: publishing now raises the month too. The
 * function of that migration is kept under another name and called by the new one, so its body is not copied.
 * Moving a month's rows out of the default partition (`paydesk_residual_partition`) leaves its rows as they were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    ...monthPartsAnswer('residual_counts', 'residuals'),
    'alter function paydesk_residual_publish(text, date) rename to paydesk_residual_attach_build',
    definerFunction(
      'paydesk_residual_publish',
      't text, m date',
      'boolean',
      `begin
      -- The write queue first (2026_12_15_0010): publishing adds to the month totals and raises the month's count,
      -- rows other writers of residuals hold too, and attaching is no statement that would queue by itself.
      perform pg_advisory_xact_lock(${WRITE_QUEUE_LOCK}::bigint);
      if not paydesk_residual_attach_build(t, m) then
        return false;
      end if;
      ${raiseParts('residual_counts', 'select m::text')}
      return true;
    end;`,
    ),
    `revoke execute on function paydesk_residual_publish(text, date), paydesk_residual_attach_build(text, date)
       from public`,
  ]);
}
