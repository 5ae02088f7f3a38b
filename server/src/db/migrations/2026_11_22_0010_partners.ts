import type { Kysely } from 'kysely';
import { hideFromIsoRole, ISO_ROLE, run, scopeToIso } from './helpers';

/**
 * Partners (spec document 2 §2.4):
 * - rev_share_history: every change of a group's rev share (old, new, who, when), scoped to the ISO like groups.
 * - group_id_sequences: the next group ID and association number of each bank. Add Group ID takes the next
 *   pair with `update … returning` in its transaction, so the row lock serialises two editors adding at once and
 *   a number once taken is never handed out again (a rolled-back add gives its number back with the rollback).
 * - crm_accounts, crm_groups: the sandbox CRM's own records (platform/crm/sandbox.ts), the default CRM when no
 *   Salesforce credentials are set. Filled here from the partners PayDesk already holds, so the first import from
 *   the sandbox changes nothing (an empty sandbox would mark every account inactive).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table rev_share_history (
       id serial primary key,
       partner_id integer not null references partners (id),
       group_row_id integer not null references groups (id) on delete cascade,
       old_rev_share numeric(7, 4),
       new_rev_share numeric(7, 4) not null,
       changed_by_user_id integer references users (id),
       changed_by text,
       changed_at timestamptz not null default now()
     )`,
    'create index rev_share_history_group on rev_share_history (group_row_id, changed_at desc)',
    `create table group_id_sequences (
       bank text primary key,
       next_group_id bigint not null check (next_group_id > 0),
       next_association bigint not null check (next_association > 0)
     )`,
    // Each bank's numbers in a range of their own, as the processor issues them.
    `insert into group_id_sequences (bank, next_group_id, next_association) values
       ('CBCAL', 410001, 7101001), ('Esquire', 520001, 7201001), ('Chesapeake', 630001, 7301001),
       ('PPS', 740001, 7401001), ('FirstData', 850001, 7501001)`,
    'create index groups_bank on groups (bank)',
    `create table crm_accounts (
       account_id text primary key,
       account_name text not null,
       status text not null,
       rm text, recruiter text,
       isc numeric(7, 4),
       liability text,
       date_signed date,
       full_name text, processing_email text, phone text,
       billing_street text, billing_city text, billing_state text, billing_zip text,
       operation_email text
     )`,
    `create table crm_groups (
       group_sf_id text primary key,
       account_id text not null references crm_accounts (account_id),
       group_name text not null,
       group_id text not null unique,
       association_number text,
       rev_share numeric(7, 4) not null,
       bank text, profile text,
       processor text not null,
       effective_date date not null
     )`,
    'create sequence crm_group_sf_seq',
    `insert into crm_accounts select account_id, account_name, status, rm, recruiter, isc, liability, date_signed,
       full_name, processing_email, phone, billing_street, billing_city, billing_state, billing_zip, operation_email
     from partners`,
    `insert into crm_groups select g.group_sf_id, p.account_id, g.group_name, g.group_id, g.association_number,
       g.rev_share, g.bank, g.profile, g.processor, g.effective_date
     from groups g join partners p on p.id = g.partner_id`,
  ]);
  await scopeToIso(db, 'rev_share_history');
  await hideFromIsoRole(db, ['group_id_sequences', 'crm_accounts', 'crm_groups']);
  await run(db, [`revoke all on sequence crm_group_sf_seq from ${ISO_ROLE}`]);
}
