import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * The processor's core data (spec document 2 §3, document 1 §1, §3). Money is numeric, never float.
 * Every partner- and merchant-level table carries partner_id and is scoped to the ISO by row-level security.
 */
/** The measures of merchant activity, the same per day and per month. */
const ACTIVITY_MEASURES = `volume numeric(14, 2) not null,
       transactions integer not null,
       chargeback_volume numeric(12, 2) not null,
       chargebacks integer not null,
       refund_volume numeric(12, 2) not null,
       refunds integer not null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table mcc_codes (
       code text primary key check (code ~ '^[0-9]{4}$'),
       description text not null
     )`,
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
    // Activity: daily rows for the recent window, monthly rows for all history. Where both exist, a month's
    // row is the sum of its days (the seed and imports keep it so).
    `create table merchant_daily (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       day date not null,
       ${ACTIVITY_MEASURES},
       primary key (merchant_id, day)
     )`,
    'create index merchant_daily_day on merchant_daily (day)',
    `create table merchant_monthly (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       month date not null check (extract(day from month) = 1),
       ${ACTIVITY_MEASURES},
       primary key (merchant_id, month)
     )`,
    'create index merchant_monthly_month on merchant_monthly (month, volume desc)',
    `create table merchant_income (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       month date not null check (extract(day from month) = 1),
       gross numeric(12, 2) not null,
       net numeric(12, 2) not null,
       expenses numeric(12, 2) not null,
       payouts numeric(12, 2) not null,
       interchange_income numeric(14, 2) not null,
       interchange_expense numeric(14, 2) not null,
       card_brand_income numeric(12, 2) not null,
       card_brand_expense numeric(12, 2) not null,
       primary key (merchant_id, month)
     )`,
    'create index merchant_income_month on merchant_income (month)',
    `create table residuals (
       id bigserial primary key,
       partner_id integer not null,
       merchant_id integer references merchants (id),
       month date not null check (extract(day from month) = 1),
       processor text not null check (processor in ('TSYS', 'PPS')),
       mid text not null,
       dba text,
       agent text,
       office text,
       payout_schedule text,
       payout_to text,
       transactions integer not null,
       volume numeric(14, 2) not null,
       income numeric(12, 2) not null,
       gross numeric(12, 2) not null,
       net numeric(12, 2) not null,
       ach_collected_gross numeric(12, 2),
       ach_collected_payout numeric(12, 2),
       ach_collected_net numeric(12, 2),
       ach_rejected_gross numeric(12, 2),
       ach_rejected_net numeric(12, 2),
       refunds_gross numeric(12, 2),
       refunds_payout numeric(12, 2),
       refunds_net numeric(12, 2),
       total_gross numeric(12, 2) not null,
       total_payout numeric(12, 2) not null,
       total_net numeric(12, 2) not null,
       income1 numeric(12, 2),
       expense numeric(12, 2) not null,
       profit_loss numeric(12, 2) not null
     )`,
    'create index residuals_month on residuals (month, processor)',
    'create index residuals_month_net on residuals (month, total_net desc)',
    'create index residuals_mid_prefix on residuals (mid text_pattern_ops)',
    `create table adjustments (
       id bigserial primary key,
       partner_id integer not null,
       merchant_id integer not null references merchants (id),
       month date not null check (extract(day from month) = 1),
       mid text not null,
       category text not null,
       description text,
       amount numeric(12, 2) not null
     )`,
    'create index adjustments_month on adjustments (month)',
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
    `create table approval_goals (
       month date primary key check (extract(day from month) = 1),
       goal integer not null check (goal >= 0)
     )`,
    `create table holidays (
       day date primary key,
       name text not null
     )`,
    `create table processing_budgets (
       month date not null check (extract(day from month) = 1),
       bank text not null,
       budget numeric(16, 2) not null,
       primary key (month, bank)
     )`,
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
  for (const table of [
    'groups',
    'merchants',
    'applications',
    'merchant_daily',
    'merchant_monthly',
    'merchant_income',
    'residuals',
    'adjustments',
    'schedule_a',
  ]) {
    await scopeToIso(db, table);
  }
}
