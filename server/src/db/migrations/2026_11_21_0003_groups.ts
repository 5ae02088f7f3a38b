import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * An ISO's processing groups: group id, association, rev share (a fraction: 0.8 is 80 %), bank, profile,
 * processor. Scoped to the ISO by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table groups (
       id serial primary key,
       partner_id integer not null references partners (id),
       group_sf_id text not null unique,
       group_name text not null,
       group_id text not null unique,
       association_number text,
       rev_share numeric(7, 4) not null check (rev_share >= 0 and rev_share <= 1),
       bank text,
       profile text,
       processor text not null default 'TSYS',
       effective_date date not null
     )`,
    'create index groups_partner on groups (partner_id)',
  ]);
  await scopeToIso(db, 'groups');
}
