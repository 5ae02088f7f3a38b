import type { Kysely } from 'kysely';
import { ISO_ROLE, run } from './helpers';

/**
 * An ISO-bound user may read the rollup's rows of their own ISO (dimension 'partner', value their id), so
 * their unfiltered dashboard is as quick as staff's; every other rollup row stays hidden by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `grant select on activity_rollup to ${ISO_ROLE}`,
    'alter table activity_rollup enable row level security',
    `create policy activity_rollup_iso_scope on activity_rollup to ${ISO_ROLE}
       using (dimension = 'partner' and value = current_setting('paydesk.iso_id'))`,
  ]);
}
