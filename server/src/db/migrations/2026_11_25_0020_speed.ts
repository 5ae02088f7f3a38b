import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/** Each ACH group's row count and money totals, from the return rows given (`rows`, each with a `sign`). */
const groupSums = (rows: string) => `
  insert into ach_groups (partner_id, classification, alert_label, rej_res, returns, transaction_amount, used_rsv,
    re_ran, sent_to_coll, write_off)
  select partner_id, classification, alert_label, coalesce(rej_res, ''), sum(sign), sum(sign * transaction_amount),
         sum(sign * coalesce(used_rsv, 0)), sum(sign * coalesce(re_ran, 0)), sum(sign * coalesce(sent_to_coll, 0)),
         sum(sign * coalesce(write_off, 0))
  from (${rows}) x
  group by partner_id, classification, alert_label, coalesce(rej_res, '')`;

/**
 * The speed pass of issue 18 (every dashboard, table and lookup call p95 ≤ 25 ms at the large scale):
 *
 * - `ach_groups`: the ACH returns' row count and money totals per ISO, classification, Alert and resolution, so a
 *   page filtered by those columns only counts and sums groups (at most a few thousand rows) instead of every
 *   matching return (82,000 for Alert Yes). A statement-level trigger with transition tables keeps it in the
 *   writing statement itself, whichever code writes the returns (the edit call, the Alert refresh, the seed), set
 *   by set; a group left without rows is deleted, so a migrated database equals a fresh one.
 * - The financial dashboard with filters in several groups finds its merchants by an index on the filter columns
 *   and reads each merchant's months from its Self Serve rows by merchant (index-only: activity and income already
 *   joined), instead of a monthly row and an income row per merchant-month.
 * - Residual Self Serve's agent filter: the net total in the same index, so a net range is checked on the index
 *   entries before any row is read.
 * - `iso_partners`: an answer version for the ISO partners dashboard's whole-directory answers (one row per ISO,
 *   from partners and applications), kept per request in platform/answerCache.ts.
 */
/** Adds the signed rows' sums to their groups (the trigger's insert, update and delete alike). */
const addToGroups = (signedRows: string) => `${groupSums(signedRows)}
         on conflict (partner_id, classification, alert_label, rej_res) do update
           set returns = ach_groups.returns + excluded.returns,
               transaction_amount = ach_groups.transaction_amount + excluded.transaction_amount,
               used_rsv = ach_groups.used_rsv + excluded.used_rsv, re_ran = ach_groups.re_ran + excluded.re_ran,
               sent_to_coll = ach_groups.sent_to_coll + excluded.sent_to_coll,
               write_off = ach_groups.write_off + excluded.write_off;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table ach_groups (
       partner_id integer not null references partners (id),
       classification text not null,
       alert_label text not null,
       rej_res text not null,
       returns integer not null,
       transaction_amount numeric(16, 2) not null,
       used_rsv numeric(16, 2) not null,
       re_ran numeric(16, 2) not null,
       sent_to_coll numeric(16, 2) not null,
       write_off numeric(16, 2) not null,
       primary key (partner_id, classification, alert_label, rej_res)
     )`,
    groupSums('select 1 as sign, * from ach_returns'),
    `create function paydesk_ach_groups() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       if tg_op = 'INSERT' then
         ${addToGroups('select 1 as sign, * from new_rows')}
       elsif tg_op = 'UPDATE' then
         ${addToGroups('select 1 as sign, * from new_rows union all select -1, * from old_rows')}
         delete from ach_groups where returns = 0 and partner_id in (select partner_id from old_rows);
       elsif tg_op = 'DELETE' then
         ${addToGroups('select -1 as sign, * from old_rows')}
         delete from ach_groups where returns = 0 and partner_id in (select partner_id from old_rows);
       else
         delete from ach_groups;
       end if;
       return null;
     end $$`,
    `create trigger ach_returns_groups_insert after insert on ach_returns referencing new table as new_rows
       for each statement execute function paydesk_ach_groups()`,
    `create trigger ach_returns_groups_update after update on ach_returns
       referencing old table as old_rows new table as new_rows
       for each statement execute function paydesk_ach_groups()`,
    `create trigger ach_returns_groups_delete after delete on ach_returns referencing old table as old_rows
       for each statement execute function paydesk_ach_groups()`,
    `create trigger ach_returns_groups_truncate after truncate on ach_returns
       for each statement execute function paydesk_ach_groups()`,

    'create index merchants_filter_groups on merchants (mcc, profile, sponsor_bank) include (id, partner_id, opened_on)',
    'create index selfserve_rows_merchant on selfserve_rows (merchant_id, month) include (tx_amt, tx_cnt, income)',

    'create index residuals_month_agent_net on residuals (month, lower(agent) text_pattern_ops, total_net)',
    'drop index residuals_month_agent',

    `insert into answer_versions (name) values ('iso_partners')`,
    `create trigger partners_iso_partners_answer_version after insert or update or delete or truncate on partners
       for each statement execute function paydesk_bump_answer_version('iso_partners')`,
    `create trigger applications_iso_partners_answer_version after insert or update or delete or truncate
       on applications for each statement execute function paydesk_bump_answer_version('iso_partners')`,
  ]);
  await scopeToIso(db, 'ach_groups');
}
