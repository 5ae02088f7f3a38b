import type { Kysely } from 'kysely';
import { hideFromIsoRole, ISO_ROLE, run, scopeToIso } from './helpers';

const SPEC_TABLES = [
  'bonus_specs',
  'bonus_excludes',
  'clawback_specs',
  'extra_bonus_specs',
  'bonus_equipment',
  'exclusive_equipment',
  'bonus_runs',
];

/**
 * The bonus module (spec document 3 §2.3, §3; docs/bonus.md):
 * - merchants gain ownership_type and equipment_model (equipment amounts are paid by model).
 * - the specifications: bonus_specs (include, by profile and period; group_id '' and iso_name null is the
 *   default), bonus_excludes, clawback_specs (the default row, group_id '', is inserted here and is the one
 *   that cannot be deleted), activation_specs, extra_bonus_specs, bonus_equipment, exclusive_equipment. Group
 *   IDs are stored normalized (no spaces, comma-separated, sorted). Internal only: ISO-bound requests cannot read
 *   them, except the activation specs of their own groups (the Activation tab).
 * - bonus_rows: the computed bonuses (W, M) and extra bonuses (ME) of each window, with why (`explanation`)
 *   and what staff did to them (do_not_pay, note, worked_*). A merchant earns one regular bonus in its life.
 *   address_key (the engine's addressKey) finds matches: earlier bonused merchants at the same address.
 * - clawback_rows: the computed clawbacks of each run (the 20th), at most one per merchant, with do_not_clawback.
 * - bonus_runs: each run of a window (when, by whom, how many rows), for the idempotent rerun and the log.
 * Rows are scoped to the ISO by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // The capability bonus_edit (domain/src/access.ts) joins the list a user may hold.
    'alter table user_capabilities drop constraint user_capabilities_capability_check',
    `alter table user_capabilities add constraint user_capabilities_capability_check check (capability in (
       'bi', 'leads', 'partners_edit', 'ach_edit', 'pci_restricted', 'pci_ach_billing', 'pci_fees',
       'pci_historic_edit', 'bonus_edit'))`,
    'alter table merchants add column ownership_type text',
    'alter table merchants add column equipment_model text',
    `create table bonus_specs (
       id serial primary key,
       iso_name text,
       group_id text not null default '',
       amount numeric(12, 2) not null check (amount >= 0),
       on_activation boolean not null default false,
       placement_only boolean not null default false,
       volume_days integer not null default 30 check (volume_days >= 0),
       volume_threshold numeric(14, 2) not null default 250 check (volume_threshold >= 0),
       profile text not null check (profile in ('PL', 'TR')),
       period text not null check (period in ('W', 'M')),
       check (placement_only = false or amount = 0),
       check ((iso_name is null) = (group_id = '')),
       unique (profile, period, group_id)
     )`,
    `create table bonus_excludes (
       id serial primary key,
       iso_name text,
       group_id text not null check (group_id <> ''),
       profile text not null check (profile in ('PL', 'TR')),
       period text not null check (period in ('W', 'M')),
       unique (profile, period, group_id)
     )`,
    `create table clawback_specs (
       id serial primary key,
       iso_name text,
       group_id text not null unique,
       closure_days integer not null default 0 check (closure_days >= 0),
       volume_days integer not null default 0 check (volume_days >= 0),
       volume_threshold numeric(14, 2) not null default 0 check (volume_threshold >= 0),
       non_processing boolean not null default true,
       monthly_volume_threshold numeric(14, 2) not null default 0 check (monthly_volume_threshold >= 0),
       check ((iso_name is null) = (group_id = ''))
     )`,
    `insert into clawback_specs (iso_name, group_id, closure_days, volume_days, volume_threshold, non_processing)
     values (null, '', 0, 0, 0, true)`,
    `create table activation_specs (
       id serial primary key,
       iso_name text,
       group_id text not null unique check (group_id <> ''),
       volume_days integer not null default 30 check (volume_days >= 0),
       volume_threshold numeric(14, 2) not null default 250 check (volume_threshold >= 0)
     )`,
    `create table extra_bonus_specs (
       id serial primary key,
       iso_name text not null,
       group_id text not null unique check (group_id <> ''),
       extra_deals integer not null default 10 check (extra_deals >= 1),
       extra_amount numeric(12, 2) not null default 200 check (extra_amount >= 0),
       bonus_type text not null default 'EPD' check (bonus_type in ('EPD', 'EFR')),
       start_date date not null,
       end_date date not null,
       enabled boolean not null default true,
       check (start_date <= end_date)
     )`,
    `create table bonus_equipment (
       id serial primary key,
       title text not null unique,
       model text not null unique,
       amount numeric(12, 2) not null check (amount >= 0)
     )`,
    `create table exclusive_equipment (
       id serial primary key,
       iso_name text not null,
       group_id text not null unique check (group_id <> ''),
       title text not null,
       model text not null,
       amount numeric(12, 2) not null check (amount >= 0)
     )`,
    `create table bonus_runs (
       id serial primary key,
       kind text not null check (kind in ('W', 'M', 'ME', 'CB')),
       window_start date not null,
       window_end date not null,
       run_date date not null,
       rows_written integer not null,
       rows_kept integer not null,
       ran_at timestamptz not null default now(),
       ran_by text,
       unique (kind, window_start)
     )`,
    `create table bonus_rows (
       id serial primary key,
       period text not null check (period in ('W', 'M', 'ME')),
       window_start date not null,
       window_end date not null,
       bonus_date date not null,
       merchant_id integer not null references merchants (id),
       partner_id integer not null references partners (id),
       mid text not null,
       bonus_type text not null,
       bonus_amount numeric(12, 2) not null check (bonus_amount >= 0),
       spec_id integer not null,
       activated_on date,
       explanation text not null,
       address_key text,
       do_not_pay boolean not null default false,
       note text check (length(note) <= 2000),
       worked_datetime timestamptz,
       worked_by text,
       unique (period, window_start, mid, spec_id)
     )`,
    `create unique index bonus_rows_once on bonus_rows (mid) where period in ('W', 'M')`,
    'create index bonus_rows_window on bonus_rows (period, window_start)',
    'create index bonus_rows_partner on bonus_rows (partner_id)',
    `create index bonus_rows_address on bonus_rows (address_key, bonus_date) where period in ('W', 'M')`,
    `create table clawback_rows (
       id serial primary key,
       run_date date not null,
       bonus_id integer not null references bonus_rows (id),
       merchant_id integer not null references merchants (id),
       partner_id integer not null references partners (id),
       mid text not null unique,
       rule_id integer not null,
       reason text not null check (reason in ('closure', 'volume', 'non_processing', 'monthly_volume')),
       reason_text text not null,
       flag text not null check (flag in ('CBY', 'CBN')),
       amount numeric(12, 2) not null check (amount >= 0),
       total_volume numeric(14, 2) not null,
       last_deposit_date date,
       volume_threshold_date date,
       explanation text not null,
       do_not_clawback boolean not null default false,
       worked_datetime timestamptz,
       worked_by text,
       check (do_not_clawback = false or flag = 'CBN')
     )`,
    'create index clawback_rows_run on clawback_rows (run_date)',
    'create index clawback_rows_partner on clawback_rows (partner_id)',
    'create index merchants_equipment_model on merchants (equipment_model)',
    // Daily volume is kept for recent months only; before that a month's volume is spread evenly over its days
    // (rounded to the cent), so runs of older windows read the same activity the dashboards show.
    `create function bonus_daily_volume(ids integer[], from_day date, to_day date)
     returns table (merchant_id integer, day date, volume numeric)
     language sql stable as $$
       select d.merchant_id, d.day, d.volume from merchant_daily d
       where d.merchant_id = any(ids) and d.day between from_day and to_day and d.volume <> 0
       union all
       select mm.merchant_id, g.day::date,
         round(mm.volume / extract(day from (mm.month + interval '1 month' - interval '1 day'))::numeric, 2)
       from merchant_monthly mm
       cross join lateral generate_series(greatest(mm.month, from_day)::timestamp,
         least((mm.month + interval '1 month' - interval '1 day')::date, to_day)::timestamp, interval '1 day') g(day)
       where mm.merchant_id = any(ids) and mm.volume <> 0
         and mm.month between date_trunc('month', from_day)::date and to_day
         and not exists (select 1 from merchant_daily d2 where d2.merchant_id = mm.merchant_id
           and d2.day >= mm.month and d2.day < mm.month + interval '1 month')
     $$`,
  ]);
  await scopeToIso(db, 'bonus_rows');
  await scopeToIso(db, 'clawback_rows');
  await hideFromIsoRole(db, SPEC_TABLES);
  // The Activation tab reads its groups' thresholds: an ISO-bound request may read the activation specs of
  // its own ISO's groups (groups is ISO-scoped), never change them.
  await run(db, [
    `revoke insert, update, delete on activation_specs from ${ISO_ROLE}`,
    'alter table activation_specs enable row level security',
    `create policy activation_specs_iso_scope on activation_specs for select to ${ISO_ROLE} using (
       exists (select 1 from groups g where g.group_id = any(string_to_array(activation_specs.group_id, ','))))`,
  ]);
}
