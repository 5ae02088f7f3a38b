import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Merchant applications: submitted, approved and closed; pending ones by level. Scoped to the ISO by row-
 * level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table applications (
       id serial primary key,
       partner_id integer not null references partners (id),
       group_id text references groups (group_id),
       merchant_id integer references merchants (id),
       dba text not null,
       profile text not null,
       sponsor_bank text not null,
       status text not null check (status in ('Pending', 'Approved', 'Declined', 'Withdrawn')),
       pending_level smallint check (pending_level between 1 and 3),
       submitted_at timestamptz not null,
       approved_at timestamptz,
       closed_at timestamptz,
       underwriter text,
       rm text
     )`,
    'create index applications_submitted on applications (submitted_at)',
    'create index applications_approved on applications (approved_at) where approved_at is not null',
    'create index applications_pending on applications (pending_level, submitted_at) where status = $$Pending$$',
    'create index applications_partner on applications (partner_id, submitted_at)',
  ]);
  await scopeToIso(db, 'applications');
}
