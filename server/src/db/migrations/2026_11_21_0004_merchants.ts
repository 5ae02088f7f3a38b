import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Merchant accounts (MIDs): names, ISO and group, profile, sponsor bank, MCC, status, dates, address,
 * contacts, RM, underwriter, sales rep. Scoped to the ISO by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table merchants (
       id serial primary key,
       mid text not null unique,
       dba text not null,
       legal_name text not null,
       partner_id integer not null references partners (id),
       group_id text not null references groups (group_id),
       profile text not null check (profile in ('PayLo', 'Traditional', 'High Risk', 'Unassigned')),
       sponsor_bank text not null check (sponsor_bank in ('CBCAL', 'PPS', 'Esquire', 'Chesapeake', 'FirstData')),
       association_number text,
       mcc text not null references mcc_codes (code),
       status text not null check (status in ('Open', 'Closed')),
       email text,
       phone text,
       cb_email text,
       address text,
       city text,
       state text,
       zip text,
       funding text not null default 'Standard',
       opened_on date not null,
       approved_on date not null,
       activated_on date,
       closed_on date,
       rm text,
       underwriter text,
       sales_rep text
     )`,
    'create index merchants_partner on merchants (partner_id)',
    'create index merchants_dba_prefix on merchants (lower(dba) text_pattern_ops)',
    'create index merchants_mid_prefix on merchants (mid text_pattern_ops)',
    'create index merchants_opened on merchants (opened_on)',
    'create index merchants_closed on merchants (closed_on) where closed_on is not null',
  ]);
  await scopeToIso(db, 'merchants');
}
