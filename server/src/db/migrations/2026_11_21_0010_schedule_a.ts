import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * An ISO's Schedule A: its buy rates by item, from an effective date (Upload Data). Scoped to the ISO by
 * row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table schedule_a (
       id serial primary key,
       partner_id integer not null references partners (id),
       item text not null,
       category text not null,
       rate_bps numeric(8, 3),
       per_item numeric(10, 4),
       effective_date date not null
     )`,
    'create index schedule_a_partner on schedule_a (partner_id, effective_date)',
  ]);
  await scopeToIso(db, 'schedule_a');
}
