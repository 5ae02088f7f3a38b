import type { Kysely } from 'kysely';
import { run } from './helpers';

/** Merchant category codes and their descriptions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table mcc_codes (
       code text primary key check (code ~ '^[0-9]{4}$'),
       description text not null
     )`,
  ]);
}
