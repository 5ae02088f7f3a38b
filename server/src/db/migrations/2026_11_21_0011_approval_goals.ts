import type { Kysely } from 'kysely';
import { run } from './helpers';

/** The monthly approvals goal of the sales dashboard. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table approval_goals (
       month date primary key check (extract(day from month) = 1),
       goal integer not null check (goal >= 0)
     )`,
  ]);
}
