import type { Kysely } from 'kysely';
import { run, statementTriggers } from './helpers';

/**
 * The financial dashboard's filter values (/api/finoptions, 340 ms to make afresh at the large scale) were made
 * stale by every statement writing a merchant or a partner (2026_12_09_0020), a merchant's status or closing date
 * included, which the answer does not read. Now a merchant's update raises the version only when a column the
 * answer reads changed (MID, DBA, MCC, profile, sponsor bank, opening day, ISO), and a partner's only when its name
 * did; an insert, a delete or a truncate always does. MCC codes keep their trigger.
 */
const bump = `update answer_versions set version = version + 1 where name = 'fin_options';`;
/**
 * The trigger function: on an update, the version is raised when `changedRows` (a query over the transition tables)
 * finds a row; on any other write, always. old_rows exists in an update's trigger only, so the query naming it is
 * planned in that branch alone. (2026_12_12_0010 replaces this migration's queries with one EXCEPT.)
 */
export const finOptionsFunction = (name: string, changedRows: string) =>
  `create or replace function ${name}() returns trigger language plpgsql security definer
     set search_path = public as $$
   begin
     if tg_op = 'UPDATE' then
       if exists (${changedRows}) then
         ${bump}
       end if;
     else
       ${bump}
     end if;
     return null;
   end $$`;
const fn = (name: string, changed: string) =>
  finOptionsFunction(
    name,
    `select 1 from new_rows n left join old_rows o on o.id = n.id where o.id is null or ${changed}`,
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'drop trigger merchants_fin_options_answer_version on merchants',
    'drop trigger partners_fin_options_answer_version on partners',
    fn(
      'paydesk_merchants_fin_options',
      `(n.mid, n.dba, n.mcc, n.profile, n.sponsor_bank, n.opened_on, n.partner_id)
         is distinct from (o.mid, o.dba, o.mcc, o.profile, o.sponsor_bank, o.opened_on, o.partner_id)`,
    ),
    fn('paydesk_partners_fin_options', 'n.account_name is distinct from o.account_name'),
    ...statementTriggers('merchants', 'fin_options', 'paydesk_merchants_fin_options'),
    ...statementTriggers('partners', 'fin_options', 'paydesk_partners_fin_options'),
  ]);
}
