import type { Kysely } from 'kysely';
import { hideFromIsoRole, run } from './helpers';

/**
 * The live demo's bookkeeping (see server/src/db/seed/live.ts and docs/data.md, "The live demo"). The seed
 * writes the one demo_state row: a database without it holds real data and the live demo never touches it.
 * demo_merchant_params keeps what the generator drew for each merchant (its activity parameters and its
 * planned activation and closing days), so later days continue the same merchants; demo_applications names
 * the applications the live demo filed by the generator's key, so a later run can decide them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table demo_state (
       only_row boolean primary key default true check (only_row),
       seed integer not null,
       scale text not null,
       seeded_at timestamptz not null,
       caught_up_to timestamptz not null check (caught_up_to >= seeded_at)
     )`,
    `create table demo_merchant_params (
       merchant_id integer primary key references merchants (id) on delete cascade,
       activates_on date,
       closes_on date not null,
       base float8 not null,
       ticket float8 not null,
       cb_rate float8 not null,
       refund_rate float8 not null,
       trend float8 not null,
       margin_bps float8 not null,
       ic_rate float8 not null
     )`,
    `create table demo_applications (
       key text primary key,
       application_id integer not null unique references applications (id) on delete cascade
     )`,
  ]);
  await hideFromIsoRole(db, ['demo_state', 'demo_merchant_params', 'demo_applications']);
}
