import type { Kysely } from 'kysely';
import { hideFromIsoRole, run, scopeToIso } from './helpers';

/**
 * PCI compliance (spec document 3 §2.2, §3, §4; docs/pci.md):
 * - pci_merchants: each merchant's PCI record (compliance, dates), its PCI status ('' open and billed, 'C'
 *   closed) and its bank routing (aba_number) and DDA (dda_number), encrypted (platform/pii.ts) with their last
 *   four kept beside them for the masked view. billing_type, pci_fee and pci_noncomp_fee are what the billing
 *   engine gives the merchant under the current configuration, kept up to date by every configuration change
 *   (so the Merchants table filters and sorts by them); the billing run recomputes them itself.
 * - the configuration: pci_default_fees (one row per flag, 0 until set), pci_default_frequency (one row),
 *   pci_fees and pci_frequencies (exceptions: one row per filter, grouped), pci_rev_shares (per ISO, from an
 *   effective date). Internal only.
 * - pci_billing_runs: each month's run, with the NACHA file it wrote (a second run answers it again) and the
 *   merchants it left out. Internal only.
 * - pci_billing: the billed rows, at most one per merchant and month, with the ISO's rev share and amount due
 *   as of the billing date.
 * Merchant-level rows are scoped to the ISO by row-level security. Saved reports gain the PCI tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'alter table saved_reports drop constraint saved_reports_table_name_check',
    `alter table saved_reports add constraint saved_reports_table_name_check check (table_name in (
       'selfserve', 'residual', 'ach', 'pci_merchants', 'pci_billing', 'pci_commissions', 'pci_old_merchants'))`,
    `create table pci_merchants (
       merchant_id integer primary key references merchants (id),
       partner_id integer not null references partners (id),
       mid text not null unique,
       pci_compliant boolean not null,
       achieved_date date,
       due_date date,
       merchant_status text not null default '' check (merchant_status in ('', 'C')),
       aba_number text,
       aba_last4 text check (aba_last4 ~ '^[0-9]{4}$'),
       dda_number text,
       dda_last4 text check (dda_last4 ~ '^[0-9]{4}$'),
       billing_type text not null default 'MTF' check (billing_type in ('MTF', 'ANF')),
       pci_fee numeric(12, 2) not null default 0,
       pci_noncomp_fee numeric(12, 2) not null default 0,
       updated_at timestamptz not null default now(),
       updated_by text
     )`,
    `create index pci_merchants_open on pci_merchants (mid) where merchant_status = ''`,
    'create index pci_merchants_partner on pci_merchants (partner_id)',
    `create table pci_default_fees (
       fee_flag text primary key check (fee_flag in ('MTF', 'ANF', 'NCF')),
       amount numeric(12, 2) not null default 0 check (amount >= 0),
       iso_cost numeric(12, 2) not null default 0 check (iso_cost >= 0)
     )`,
    `insert into pci_default_fees (fee_flag) values ('MTF'), ('ANF'), ('NCF')`,
    `create table pci_default_frequency (
       only_row boolean primary key default true check (only_row),
       frequency text not null default 'MTF' check (frequency in ('MTF', 'ANF'))
     )`,
    'insert into pci_default_frequency default values',
    `create table pci_fees (
       id serial primary key,
       fee_flag text not null check (fee_flag in ('MTF', 'ANF', 'NCF', 'SMF')),
       amount numeric(12, 2) not null check (amount >= 0),
       iso_cost numeric(12, 2) not null check (iso_cost >= 0),
       filter_id integer not null,
       filter_value text not null,
       filter_operator_id integer not null,
       fee_group integer not null check (fee_group >= 1)
     )`,
    `create table pci_frequencies (
       id serial primary key,
       frequency text not null check (frequency in ('MTF', 'ANF')),
       filter_id integer not null,
       filter_value text not null,
       filter_operator_id integer not null,
       frequency_group integer not null check (frequency_group >= 1)
     )`,
    `create table pci_rev_shares (
       id serial primary key,
       partner_id integer not null references partners (id),
       rev_share numeric(5, 2) not null check (rev_share >= 0 and rev_share <= 100),
       effective_date date not null,
       unique (partner_id, effective_date)
     )`,
    `create table pci_billing_runs (
       id serial primary key,
       month date not null unique check (extract(day from month) = 1),
       created_at timestamptz not null default now(),
       created_by text not null,
       entries integer not null,
       total_debit numeric(14, 2) not null,
       skipped jsonb not null default '[]',
       file text not null
     )`,
    `create table pci_billing (
       id serial primary key,
       month date not null check (extract(day from month) = 1),
       run_id integer not null references pci_billing_runs (id),
       merchant_id integer not null references merchants (id),
       partner_id integer not null references partners (id),
       mid text not null,
       billing_flag text not null check (billing_flag in ('MTF', 'ANF', 'NCF')),
       amount numeric(12, 2) not null check (amount > 0),
       iso_cost numeric(12, 2) not null check (iso_cost >= 0),
       iso_rev_share numeric(5, 2),
       amount_due numeric(12, 2),
       created_date date not null,
       processed_date date,
       unique (month, merchant_id),
       check ((iso_rev_share is null) = (amount_due is null))
     )`,
    'create index pci_billing_month_mid on pci_billing (month, mid)',
    'create index pci_billing_commissions on pci_billing (month, mid) where iso_rev_share is not null',
    'create index pci_billing_partner on pci_billing (partner_id, month)',
    // The Merchants table's sorts by the PCI record's own columns read these (the default, by MID, reads the
    // open merchants' index above).
    `create index pci_merchants_noncomp_fee on pci_merchants (pci_noncomp_fee, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_fee on pci_merchants (pci_fee, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_due on pci_merchants (due_date, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_achieved on pci_merchants (achieved_date, merchant_id) where merchant_status = ''`,
    // The toolkit orders a column descending with the tiebreak still ascending (`desc nulls last, merchant_id`):
    // a backward scan of the ascending index gives the tiebreak descending, and with most fees equal the whole
    // table was sorted (120 ms at the large scale).
    `create index pci_merchants_noncomp_fee_desc on pci_merchants (pci_noncomp_fee desc nulls last, merchant_id)
       where merchant_status = ''`,
    `create index pci_merchants_fee_desc on pci_merchants (pci_fee desc nulls last, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_due_desc on pci_merchants (due_date desc nulls last, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_achieved_desc on pci_merchants (achieved_date desc nulls last, merchant_id)
       where merchant_status = ''`,
    // A month's billing and commissions are answered from a cache (platform/answerCache.ts) kept per version of
    // the tables they read.
    `insert into answer_versions (name) values ('pci_billing')`,
    ...['pci_billing', 'merchants', 'partners'].map(
      (
        table,
      ) => `create trigger ${table}_pci_billing_answer_version after insert or update or delete or truncate
         on ${table} for each statement execute function paydesk_bump_answer_version('pci_billing')`,
    ),
  ]);
  await scopeToIso(db, 'pci_merchants');
  await scopeToIso(db, 'pci_billing');
  // Rev shares carry partner_id: scoped like every such table, though the ISO role has no grant on them at all.
  await scopeToIso(db, 'pci_rev_shares');
  await hideFromIsoRole(db, [
    'pci_default_fees',
    'pci_default_frequency',
    'pci_fees',
    'pci_frequencies',
    'pci_rev_shares',
    'pci_billing_runs',
  ]);
}
