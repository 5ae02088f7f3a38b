import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * A legal name's rejection balance (merchRejBal) is kept once, on its row of `ach_legal_names`, instead of on each
 * of its return rows: an edit of an amount moved the balance of up to hundreds of rows, each rewritten through
 * every index of ach_returns; now it moves one row. The ACH table joins the row by its key (partner, legal name).
 * The legal name's row count and money totals sit beside the balance, so a page filtered only by the balance
 * counts and sums its rows from here (one row per legal name) instead of from every matching return.
 * The Alert stays on the return row (it also depends on the MID's reserve); the edit call rewrites it only when
 * the balance crosses zero.
 * `ach_totals` is kept per ISO and ISO name as the rows carry it (`''` for none), so a page filtered only by the
 * ISO name counts and sums ISOs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table ach_legal_names (
       partner_id integer not null references partners (id),
       legal_name text not null,
       merch_rej_bal numeric(14, 2) not null,
       returns integer not null,
       transaction_amount numeric(16, 2) not null,
       used_rsv numeric(16, 2) not null,
       re_ran numeric(16, 2) not null,
       sent_to_coll numeric(16, 2) not null,
       write_off numeric(16, 2) not null,
       primary key (partner_id, legal_name)
     )`,
    `create index ach_legal_names_balance on ach_legal_names (merch_rej_bal, partner_id, legal_name)
       include (returns, transaction_amount, used_rsv, re_ran, sent_to_coll, write_off)`,
    `insert into ach_legal_names (partner_id, legal_name, merch_rej_bal, returns, transaction_amount, used_rsv, re_ran,
       sent_to_coll, write_off)
     select partner_id, legal_name, sum(row_balance), count(*), sum(transaction_amount), coalesce(sum(used_rsv), 0),
            coalesce(sum(re_ran), 0), coalesce(sum(sent_to_coll), 0), coalesce(sum(write_off), 0)
     from ach_returns group by partner_id, legal_name`,
    'drop index ach_returns_merch_rej_bal',
    'drop index ach_returns_merch_rej_bal_desc',
    'alter table ach_returns drop column merch_rej_bal',
    'delete from ach_totals',
    'alter table ach_totals drop constraint ach_totals_pkey',
    `alter table ach_totals add column iso_name text not null default ''`,
    'alter table ach_totals add primary key (partner_id, iso_name)',
    `insert into ach_totals (partner_id, iso_name, returns, transaction_amount, used_rsv, re_ran, sent_to_coll, write_off)
     select partner_id, coalesce(iso_name, ''), count(*), sum(transaction_amount), coalesce(sum(used_rsv), 0),
            coalesce(sum(re_ran), 0), coalesce(sum(sent_to_coll), 0), coalesce(sum(write_off), 0)
     from ach_returns group by partner_id, coalesce(iso_name, '')`,
    `create index ach_totals_iso_name on ach_totals (lower(iso_name) text_pattern_ops)`,
  ]);
  await scopeToIso(db, 'ach_legal_names');
}
