import type { Kysely } from 'kysely';
import { hideFromIsoRole, run } from './helpers';

/** Each code-day's row count and money totals, from the return rows given (`rows`, each with a `sign`). */
const codeDaySums = (rows: string) => `
  insert into ach_code_days (addenda_related, file_creation_date, returns, transaction_amount, used_rsv, re_ran,
    sent_to_coll, write_off)
  select addenda_related, file_creation_date, sum(sign), sum(sign * transaction_amount),
         sum(sign * coalesce(used_rsv, 0)), sum(sign * coalesce(re_ran, 0)), sum(sign * coalesce(sent_to_coll, 0)),
         sum(sign * coalesce(write_off, 0))
  from (${rows}) x
  group by addenda_related, file_creation_date`;

/** Adds the signed rows' sums to their code-days (the trigger's insert, update and delete alike). */
const addToCodeDays = (signedRows: string) => `${codeDaySums(signedRows)}
         on conflict (addenda_related, file_creation_date) do update
           set returns = ach_code_days.returns + excluded.returns,
               transaction_amount = ach_code_days.transaction_amount + excluded.transaction_amount,
               used_rsv = ach_code_days.used_rsv + excluded.used_rsv, re_ran = ach_code_days.re_ran + excluded.re_ran,
               sent_to_coll = ach_code_days.sent_to_coll + excluded.sent_to_coll,
               write_off = ach_code_days.write_off + excluded.write_off;`;

/**
 * `ach_code_days`: the ACH returns' row count and money totals per return code and file day, over every ISO, for
 * internal staff's ACH pages filtered by code and file date only (R01 and R10 since January: 52,809 returns at the
 * large scale, 150,000 at xl, summed on each call; a few hundred code-days). Per ISO it would hold about a row per
 * return (245,804 rows for 364,846 returns at the large scale), so it has no ISO column: ISO-bound users cannot
 * read it (no grant), and their pages count their own ISO's returns as before (areas/ach/table.ts,
 * achStaffSource). Kept like `ach_groups` (2026_11_25_0020_speed): statement-level triggers with transition
 * tables, in the writing statement itself; a code-day left without rows is deleted (issue 18).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table ach_code_days (
       addenda_related text not null,
       file_creation_date date not null,
       returns integer not null,
       transaction_amount numeric(16, 2) not null,
       used_rsv numeric(16, 2) not null,
       re_ran numeric(16, 2) not null,
       sent_to_coll numeric(16, 2) not null,
       write_off numeric(16, 2) not null,
       primary key (addenda_related, file_creation_date)
     )`,
    codeDaySums('select 1 as sign, * from ach_returns'),
    `create function paydesk_ach_code_days() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       if tg_op = 'INSERT' then
         ${addToCodeDays('select 1 as sign, * from new_rows')}
       elsif tg_op = 'UPDATE' then
         ${addToCodeDays('select 1 as sign, * from new_rows union all select -1, * from old_rows')}
         delete from ach_code_days c using old_rows o
           where c.returns = 0 and c.addenda_related = o.addenda_related
             and c.file_creation_date = o.file_creation_date;
       elsif tg_op = 'DELETE' then
         ${addToCodeDays('select -1 as sign, * from old_rows')}
         delete from ach_code_days c using old_rows o
           where c.returns = 0 and c.addenda_related = o.addenda_related
             and c.file_creation_date = o.file_creation_date;
       else
         delete from ach_code_days;
       end if;
       return null;
     end $$`,
    `create trigger ach_returns_code_days_insert after insert on ach_returns referencing new table as new_rows
       for each statement execute function paydesk_ach_code_days()`,
    `create trigger ach_returns_code_days_update after update on ach_returns
       referencing old table as old_rows new table as new_rows
       for each statement execute function paydesk_ach_code_days()`,
    `create trigger ach_returns_code_days_delete after delete on ach_returns referencing old table as old_rows
       for each statement execute function paydesk_ach_code_days()`,
    `create trigger ach_returns_code_days_truncate after truncate on ach_returns
       for each statement execute function paydesk_ach_code_days()`,
  ]);
  await hideFromIsoRole(db, ['ach_code_days']);
}
