import type { Kysely } from 'kysely';
import { run } from './helpers';

/** Monthly processing volume budget by bank. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table processing_budgets (
       month date not null check (extract(day from month) = 1),
       bank text not null,
       budget numeric(16, 2) not null,
       primary key (month, bank)
     )`,
  ]);
}
