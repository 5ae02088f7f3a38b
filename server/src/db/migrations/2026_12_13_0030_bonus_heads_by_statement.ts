import type { Kysely } from 'kysely';
import { BONUS_HEAD_MERCHANT_COLUMNS } from './2026_12_06_0010_bonus_row_answer';
import { changedIds, run } from './helpers';

/**
 * The statement-level update trigger on `table` (and its function) that writes again the heads of the bonus rows of
 * the merchants `merchants` selects (a query over the transition tables), in one `update` and only when they have
 * bonus rows.
 */
const headsTrigger = (table: string, merchants: string) => [
  `create function paydesk_${table}_bonus_heads() returns trigger language plpgsql security definer
   set search_path = public as $$
   declare
     changed integer[];
   begin
     select array_agg(c.id) into changed from (${merchants}) c
     where exists (select 1 from bonus_rows b where b.merchant_id = c.id);
     if changed is not null then
       update bonus_rows set answer_head = null where merchant_id = any (changed);
     end if;
     return null;
   end $$`,
  `create trigger ${table}_bonus_heads after update on ${table}
     referencing old table as old_rows new table as new_rows
     for each statement execute function paydesk_${table}_bonus_heads()`,
];

/**
 * A merchant's bonus rows keep the JSON of the merchant's shown columns (`answer_head`, 2026_12_06_0010). A row-level
 * trigger wrote them again merchant by merchant: one `update bonus_rows` per changed merchant with bonus rows, each
 * running the bonus rows' statement triggers (their figures, the bonus answers' version) again. A statement writing
 * the equipment model of every merchant took 37 s at the large scale against 6 s without it (docs/bench.md,
 * 2026-11-29). It is now one statement-level trigger: the merchants whose shown columns the statement changed are
 * found with one EXCEPT of the transition tables (helpers.ts, changedIds), and their bonus rows' heads are written
 * again in one `update`, only when there are such rows (an update of none would still run the bonus rows' statement
 * triggers). A partner's rename (an import may rename many partners in one statement) is kept the same way: one
 * statement-level trigger on `partners` writes the heads of the renamed partners' merchants' bonus rows at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'drop trigger merchants_bonus_head on merchants',
    'drop function paydesk_merchant_bonus_answer()',
    ...headsTrigger('merchants', changedIds(BONUS_HEAD_MERCHANT_COLUMNS)),
    'drop trigger partners_bonus_head on partners',
    'drop function paydesk_partner_bonus_answer()',
    ...headsTrigger(
      'partners',
      `select m.id from merchants m where m.partner_id in (${changedIds(['account_name'])})`,
    ),
  ]);
}
