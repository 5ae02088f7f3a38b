import type { Kysely } from 'kysely';
import { hideFromIsoRole, PUBLIC_TOKEN_ROLE, run } from './helpers';

const LEADS_TABLES = [
  'crm_leads',
  'lead_forms',
  'lead_applications',
  'lead_steps',
  'lead_checks',
  'lead_approvals',
];

/**
 * Leads (spec document 3 §2.4, §2.5, §3, §4; docs/leads.md):
 * - crm_leads: the sandbox CRM's leads (platform/crm/sandbox.ts), filled by the demo seed; with Salesforce
 *   configured the leads live there and this table stays unused.
 * - lead_forms: the saved application. SSN, DOB, TIN, routing and DDA numbers are only ever stored encrypted
 *   (platform/pii.ts), in the *_encrypted columns; nothing else of the form is sensitive.
 * - lead_applications: an uploaded application PDF and its parsed form fields. Both hold the applicant's SSN and
 *   bank numbers, so both are encrypted (the PDF as base64 text): the application is not kept in `documents`.
 * - lead_steps: the stepper's current step per lead. lead_checks: one row per lead and check, its status and
 *   run number (a re-run bumps it, so a job of an earlier run changes nothing).
 * - lead_approvals: each request sent to an underwriter. The e-mailed link's token is kept only as its SHA-256
 *   (token_hash), so the table cannot be used to open a link; it expires at expires_on and works once.
 * Internal only: partner staff's role cannot read any of it. The public approval page's role may read the
 * approval by its token hash and record the decision, read the check summary, and convert the sandbox lead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // The capability underwriter (domain/src/access.ts) joins the list a user may hold.
    'alter table user_capabilities drop constraint user_capabilities_capability_check',
    `alter table user_capabilities add constraint user_capabilities_capability_check check (capability in (
       'bi', 'leads', 'partners_edit', 'ach_edit', 'pci_restricted', 'pci_ach_billing', 'pci_fees',
       'pci_historic_edit', 'bonus_edit', 'underwriter'))`,
    `create table crm_leads (
       lead_id text primary key check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       name text not null,
       company text,
       status text not null,
       created_date timestamptz not null,
       owner_name text,
       first_name text,
       last_name text,
       email text,
       phone text,
       street text,
       city text,
       state text,
       postal_code text,
       converted_account_id text,
       converted_at timestamptz
     )`,
    'create index crm_leads_created on crm_leads (created_date desc, lead_id)',
    // The lead picker's list is a cached answer (platform/answerCache.ts), versioned by writes to crm_leads.
    `insert into answer_versions (name) values ('leads')`,
    `create trigger crm_leads_answer_version after insert or update or delete or truncate on crm_leads
       for each statement execute function paydesk_bump_answer_version('leads')`,
    'create sequence crm_account_sf_seq',
    `create table lead_forms (
       lead_id text primary key check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       first_name text not null,
       last_name text not null,
       email text,
       phone text,
       ssn_encrypted text not null check (ssn_encrypted like 'v1.%'),
       dob_encrypted text not null check (dob_encrypted like 'v1.%'),
       home_address text not null,
       home_city text not null,
       home_state text not null,
       home_zip text not null,
       dba text,
       legal_name text not null,
       iso_split numeric(5, 2) check (iso_split between 0 and 100),
       tin_encrypted text check (tin_encrypted like 'v1.%'),
       business_type text,
       business_email text,
       business_phone text,
       business_address_1 text not null,
       business_address_2 text,
       business_city text not null,
       business_state text not null,
       business_zip text not null,
       aba_number_encrypted text not null check (aba_number_encrypted like 'v1.%'),
       dda_number_encrypted text not null check (dda_number_encrypted like 'v1.%'),
       sales_agent integer check (sales_agent >= 0),
       years_industry integer check (years_industry >= 0),
       owner_name text,
       saved_by integer not null references users (id),
       saved_at timestamptz not null default now()
     )`,
    `create table lead_applications (
       lead_id text primary key check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       filename text not null check (length(filename) between 1 and 200),
       size_bytes integer not null check (size_bytes > 0),
       content_encrypted text not null check (content_encrypted like 'v1.%'),
       fields_encrypted text not null check (fields_encrypted like 'v1.%'),
       uploaded_by integer not null references users (id),
       uploaded_at timestamptz not null default now()
     )`,
    `create table lead_steps (
       lead_id text primary key check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       current_step smallint not null check (current_step between 0 and 3),
       completed boolean not null,
       updated_at timestamptz not null default now()
     )`,
    `create table lead_checks (
       lead_id text not null check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       check_type text not null check (check_type in ('DataX', 'Match', 'TinCheck', 'Giact', 'LexisNexis')),
       runtime_status text check (runtime_status in ('initiated', 'started', 'finished', 'stopped', 'uploaded')),
       run integer not null default 0,
       result text,
       error_msg text,
       document_name text,
       provider text,
       queued_at timestamptz,
       started_at timestamptz,
       finished_at timestamptz,
       queued_by integer references users (id),
       primary key (lead_id, check_type),
       check (runtime_status is distinct from 'uploaded' or check_type = 'LexisNexis')
     )`,
    `create table lead_approvals (
       id serial primary key,
       lead_id text not null check (lead_id ~ '^[A-Za-z0-9]{1,40}$'),
       token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
       assigned_user text not null,
       assigned_by text not null,
       cc_user text,
       created_on timestamptz not null default now(),
       expires_on timestamptz not null,
       approved smallint check (approved in (0, 1)),
       comment text check (length(comment) <= 2000),
       decided_on timestamptz,
       first_name text,
       last_name text,
       dba text,
       legal_name text,
       owner_name text,
       uw_name text not null,
       account_id text,
       check ((approved is null) = (decided_on is null))
     )`,
    'create index lead_approvals_lead on lead_approvals (lead_id, created_on desc)',
    'create index lead_approvals_created on lead_approvals (created_on desc, id)',
  ]);
  await hideFromIsoRole(db, LEADS_TABLES);
  await run(db, [
    // The public approval page: the approval by its token hash, the decision, the check summary, the conversion.
    `grant select on lead_approvals to ${PUBLIC_TOKEN_ROLE}`,
    `grant update (approved, comment, decided_on, account_id) on lead_approvals to ${PUBLIC_TOKEN_ROLE}`,
    `grant select (lead_id, check_type, runtime_status, result, started_at) on lead_checks to ${PUBLIC_TOKEN_ROLE}`,
    `grant select, update on lead_steps to ${PUBLIC_TOKEN_ROLE}`,
    `grant select (lead_id, converted_account_id), update (converted_account_id, converted_at, status)
       on crm_leads to ${PUBLIC_TOKEN_ROLE}`,
    `grant usage on sequence crm_account_sf_seq to ${PUBLIC_TOKEN_ROLE}`,
    `grant insert on audit_log to ${PUBLIC_TOKEN_ROLE}`,
    `grant usage on sequence audit_log_id_seq to ${PUBLIC_TOKEN_ROLE}`,
  ]);
}
