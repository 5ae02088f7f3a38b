import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/** The resolutions as this migration made the check (domain/src/ach/classification.ts lists them for code). */
const RESOLUTIONS = [
  'Used Reserve',
  'Used Reserve - PARTIAL',
  'Re-Ran Successfully',
  'Write Off',
  'Will Be Sent to Coll.',
  'Sent to Collections',
  'Billed to Esquire Merch Svcs',
  'Billed to ISO',
  'Cancels Out with DR/CR',
  'ETFshouldnothavebeencharged',
  'Fraud account',
  'hold all batches',
  'Notice of Correction',
  'Received a Check',
  'TR Investigation',
  'TSYS ERROR',
  'Under litigation',
  'Wire Received',
  'Write Off - Other',
  'Write Off - Waived',
];

const INCLUDE = ' include (transaction_amount, used_rsv, re_ran, sent_to_coll, write_off)';

const quoted = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

/**
 * ACH returns (spec document 2 §2.7, §3, §4, §5), every table scoped to the ISO by row-level security:
 * - ach_reserves: each MID's reserve (hold, ceiling, balance), the source of the copies on its return rows.
 * - ach_returns: one returned debit (or notification of change) per row, with the spec's fields. Besides them:
 *   `row_balance` and `classification`, generated from the row by the rules of domain/src/ach (the database
 *   keeps them true on every write, and they are indexed for filtering and sorting); the MID's reserve and
 *   occurrence count; `legal_name_mids` (MIDs of the legal name in the ISO), `merch_rej_bal` (the legal name's
 *   total rejection balance in the ISO) and `alert`, kept in step by the edit call (areas/ach) for every row of
 *   the legal name; `version`, raised by every edit so a stale edit is refused.
 * - ach_history: every edit (who, when, column, old, new).
 * - ach_debit_entries: ACH debit entries originated per merchant per day, what return rates divide by.
 * - ach_totals: each ISO's row count and money totals, so the unfiltered ACH table need not sum every row; rebuilt
 *   with the derived columns and moved by each edit of an amount.
 * - ach_rate_window: each merchant's entries and returns over the 60 days ending `as_of`, rebuilt where entries or
 *   returns are added (the seed), read by the return-rate panel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table ach_reserves (
       merchant_id integer primary key references merchants (id),
       partner_id integer not null references partners (id),
       mid text not null unique,
       rsv_hold numeric(14, 2) not null default 0 check (rsv_hold >= 0),
       rsv_ceiling numeric(14, 2) not null default 0 check (rsv_ceiling >= 0),
       rsv_balance numeric(14, 2) not null default 0
     )`,
    'create index ach_reserves_partner on ach_reserves (partner_id)',
    `create table ach_returns (
       id serial primary key,
       historic smallint not null default 0 check (historic in (0, 1)),
       merchant_id integer not null references merchants (id),
       partner_id integer not null references partners (id),
       file_creation_date date not null,
       mid text not null,
       dba_name text,
       legal_name text not null,
       iso_name text,
       company_entry_description text not null,
       transaction_amount numeric(14, 2) not null check (transaction_amount >= 0),
       addenda_related text not null,
       rej_res text check (rej_res in (${quoted(RESOLUTIONS)})),
       res_date date,
       last_proc_date date,
       rej_dda text,
       comment text check (length(comment) <= 1000),
       used_rsv numeric(14, 2) check (used_rsv >= 0),
       used_rsv_date date,
       re_ran numeric(14, 2) check (re_ran >= 0),
       re_ran_date date,
       sent_to_coll numeric(14, 2) check (sent_to_coll >= 0),
       write_off numeric(14, 2) check (write_off >= 0),
       merchant_status text not null,
       rsv_hold numeric(14, 2),
       rsv_ceiling numeric(14, 2),
       rsv_balance numeric(14, 2),
       occurrence integer not null default 0,
       legal_name_mids integer not null default 1,
       merch_rej_bal numeric(14, 2) not null default 0,
       alert boolean not null default false,
       alert_label text generated always as (case when alert then 'Yes' else 'No' end) stored,
       datetime_worked timestamptz,
       worked_by text,
       effective_entry_date date not null,
       originating_dfi text,
       version integer not null default 0,
       row_balance numeric(14, 2) generated always as (
         coalesce(used_rsv, 0) + coalesce(re_ran, 0) + coalesce(sent_to_coll, 0) + coalesce(write_off, 0)
           - transaction_amount
       ) stored,
       classification text generated always as (
         case
           when upper(btrim(addenda_related)) like 'C%' and transaction_amount = 0 then 'NOC'
           when (merchant_status = 'Active' and rej_res in ('Write Off', 'Sent to Collections'))
             or (rej_res = 'Used Reserve - PARTIAL' and coalesce(write_off, 0) + coalesce(sent_to_coll, 0) > 0)
             then 'resurrect'
           when rej_res is null or rej_res = 'Will Be Sent to Coll.' then 'unresolved'
           else 'reject closed'
         end
       ) stored
     )`,
    'create index ach_returns_partner on ach_returns (partner_id)',
    'create index ach_returns_merchant on ach_returns (merchant_id)',
    'create index ach_returns_legal_name on ach_returns (partner_id, legal_name)',
    // The default order and its reverse, and the orders and filters people use most. The indexes of the select
    // filters and of two range filters carry the money columns, so a filtered page's count and totals read the
    // index only.
    'create index ach_returns_file_date on ach_returns (file_creation_date desc nulls last, id desc nulls last)',
    'create index ach_returns_file_date_asc on ach_returns (file_creation_date, id)',
    'create index ach_returns_entry_date on ach_returns (effective_entry_date, id)',
    'create index ach_returns_entry_date_desc on ach_returns (effective_entry_date desc nulls last, id desc)',
    'create index ach_returns_amount on ach_returns (transaction_amount, id)',
    'create index ach_returns_amount_desc on ach_returns (transaction_amount desc nulls last, id)',
    `create index ach_returns_merch_rej_bal on ach_returns (merch_rej_bal, id)${INCLUDE}`,
    'create index ach_returns_merch_rej_bal_desc on ach_returns (merch_rej_bal desc nulls last, id)',
    'create index ach_returns_rsv_balance_desc on ach_returns (rsv_balance desc nulls last, id)',
    `create index ach_returns_occurrence_desc on ach_returns (occurrence desc nulls last, id)${INCLUDE}`,
    `create index ach_returns_classification on ach_returns (classification, file_creation_date desc nulls last, id desc nulls last)${INCLUDE}`,
    `create index ach_returns_code on ach_returns (addenda_related, file_creation_date desc nulls last, id desc nulls last)${INCLUDE}`,
    `create index ach_returns_resolution on ach_returns (rej_res, file_creation_date desc nulls last, id desc nulls last)${INCLUDE}`,
    `create index ach_returns_alert on ach_returns (alert_label, file_creation_date desc nulls last, id desc nulls last)${INCLUDE}`,
    'create index ach_returns_worked on ach_returns (datetime_worked desc nulls last, id) where datetime_worked is not null',
    'create index ach_returns_mid_prefix on ach_returns (lower(mid) text_pattern_ops)',
    'create index ach_returns_dba_prefix on ach_returns (lower(dba_name) text_pattern_ops)',
    'create index ach_returns_legal_prefix on ach_returns (lower(legal_name) text_pattern_ops)',
    'create index ach_returns_iso_prefix on ach_returns (lower(iso_name) text_pattern_ops)',
    'create index ach_returns_dba on ach_returns (dba_name, id)',
    'create index ach_returns_iso on ach_returns (iso_name, id)',
    `create table ach_history (
       id serial primary key,
       ach_return_id integer not null references ach_returns (id),
       partner_id integer not null references partners (id),
       column_name text not null,
       old_value text,
       new_value text,
       changed_by_user_id integer references users (id),
       changed_by text,
       changed_at timestamptz not null default now()
     )`,
    'create index ach_history_row on ach_history (ach_return_id, changed_at desc, id desc)',
    `create table ach_debit_entries (
       merchant_id integer not null references merchants (id),
       partner_id integer not null references partners (id),
       day date not null,
       entries integer not null check (entries > 0),
       primary key (merchant_id, day)
     )`,
    'create index ach_debit_entries_day on ach_debit_entries (day)',
    `create table ach_rate_window (
       merchant_id integer primary key references merchants (id),
       partner_id integer not null references partners (id),
       as_of date not null,
       entries integer not null,
       returns integer not null,
       unauthorized integer not null,
       administrative integer not null
     )`,
    'create index ach_rate_window_partner on ach_rate_window (partner_id)',
    `create table ach_totals (
       partner_id integer primary key references partners (id),
       returns integer not null,
       transaction_amount numeric(16, 2) not null,
       used_rsv numeric(16, 2) not null,
       re_ran numeric(16, 2) not null,
       sent_to_coll numeric(16, 2) not null,
       write_off numeric(16, 2) not null
     )`,
  ]);
  for (const table of [
    'ach_reserves',
    'ach_returns',
    'ach_history',
    'ach_debit_entries',
    'ach_rate_window',
    'ach_totals',
  ])
    await scopeToIso(db, table);
}
