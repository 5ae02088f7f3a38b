import type { Kysely } from 'kysely';
import { run } from './helpers';

/** Saved reports: a user's named views of a table (filters and visible columns). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table saved_reports (
       id serial primary key,
       user_id integer not null references users (id) on delete cascade,
       table_name text not null check (table_name in ('selfserve', 'residual', 'ach')),
       report_name text not null,
       filters jsonb not null,
       columns jsonb not null,
       updated_at timestamptz not null default now(),
       unique (user_id, table_name, report_name)
     )`,
  ]);
}
