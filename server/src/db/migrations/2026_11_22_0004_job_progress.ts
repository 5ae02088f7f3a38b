import type { Kysely } from 'kysely';
import { hideFromIsoRole, run } from './helpers';

/**
 * What a running background job last reported (platform/jobs.ts). The jobs themselves live in pg-boss's own
 * schema (`pgboss`, made by pg-boss at start); this is PayDesk's line beside each: percent done and a line of
 * text the Jobs screen and the screen that started the job poll. Written outside the job's transaction, so it
 * is seen while the job runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table job_progress (
       job_id uuid primary key,
       percent smallint not null check (percent between 0 and 100),
       message text not null,
       updated_at timestamptz not null default now()
     )`,
  ]);
  await hideFromIsoRole(db, ['job_progress']);
}
