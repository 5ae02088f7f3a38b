import type { Kysely } from 'kysely';
import { run } from './helpers';

/** Bank holidays: business days exclude them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table holidays (
       day date primary key,
       name text not null
     )`,
  ]);
}
