import type { Kysely } from 'kysely';
import { hideFromIsoRole, ISO_ROLE, run, scopeToIso } from './helpers';

/** Accounts, sessions, permissions, audit log, outbox, partners (ISOs), and the ISO-scoped role. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // The role is cluster-wide; tolerate a parallel migration creating it first.
    `do $$ begin
       if not exists (select 1 from pg_roles where rolname = '${ISO_ROLE}') then
         create role ${ISO_ROLE} nologin;
       end if;
     exception when duplicate_object or unique_violation then null;
     end $$`,
    // A non-superuser application role must be a member to switch to it.
    `do $$ begin
       execute format('grant ${ISO_ROLE} to %I', current_user);
     exception when others then null;
     end $$`,
    `grant usage on schema public to ${ISO_ROLE}`,
    `alter default privileges in schema public grant select, insert, update, delete on tables to ${ISO_ROLE}`,
    `alter default privileges in schema public grant usage, select on sequences to ${ISO_ROLE}`,

    `create table partners (
       id serial primary key,
       account_id text not null unique,
       account_name text not null,
       status text not null default 'Active',
       rm text,
       recruiter text,
       isc numeric(7, 4),
       liability text,
       date_signed date,
       full_name text,
       processing_email text,
       phone text,
       billing_street text,
       billing_city text,
       billing_state text,
       billing_zip text,
       operation_email text,
       in_house boolean not null default false,
       created_at timestamptz not null default now()
     )`,
    'create index partners_account_name_lower on partners (lower(account_name) text_pattern_ops)',

    `create table users (
       id serial primary key,
       email text not null unique check (email = lower(email)),
       department text not null check (department in ('admin', 'sales_admin', 'finance_admin', 'sales', 'finance')),
       password_hash text not null,
       active boolean not null default true,
       failed_signins integer not null default 0,
       locked_until timestamptz,
       partner_id integer references partners (id),
       password_changed_at timestamptz not null default now(),
       last_signin_at timestamptz,
       created_at timestamptz not null default now()
     )`,
    `create table user_capabilities (
       user_id integer not null references users (id) on delete cascade,
       capability text not null check (capability in ('bi', 'leads', 'partners_edit', 'ach_edit',
         'pci_restricted', 'pci_ach_billing', 'pci_fees', 'pci_historic_edit')),
       primary key (user_id, capability)
     )`,
    `create table password_history (
       id serial primary key,
       user_id integer not null references users (id) on delete cascade,
       password_hash text not null,
       created_at timestamptz not null default now()
     )`,
    'create index password_history_user on password_history (user_id, created_at desc)',
    `create table sessions (
       token_hash text primary key,
       public_id text not null unique,
       user_id integer not null references users (id) on delete cascade,
       created_at timestamptz not null default now(),
       expires_at timestamptz not null,
       last_seen_at timestamptz not null default now(),
       ip text,
       user_agent text
     )`,
    'create index sessions_user on sessions (user_id)',
    'create index sessions_expires on sessions (expires_at)',
    `create table password_resets (
       token_hash text primary key,
       user_id integer not null references users (id) on delete cascade,
       created_at timestamptz not null default now(),
       expires_at timestamptz not null,
       used_at timestamptz
     )`,
    `create table audit_log (
       id bigserial primary key,
       at timestamptz not null default now(),
       actor_user_id integer references users (id) on delete set null,
       actor_email text,
       action text not null,
       subject text,
       ip text,
       details jsonb not null default '{}'
     )`,
    'create index audit_log_at on audit_log (at desc)',
    `create table outbox (
       id serial primary key,
       created_at timestamptz not null default now(),
       to_address text not null,
       subject text not null,
       text_body text not null,
       html_body text
     )`,
  ]);
  await scopeToIso(db, 'partners', 'id');
  await hideFromIsoRole(db, [
    'users',
    'user_capabilities',
    'password_history',
    'sessions',
    'password_resets',
    'outbox',
  ]);
  // ISO-bound requests may append to the audit log, never read it.
  await run(db, [`revoke select, update, delete on audit_log from ${ISO_ROLE}`]);
}
