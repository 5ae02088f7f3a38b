import type { Kysely } from 'kysely';
import { run } from './helpers';

/** The merchant columns a bonus row's head shows (2026_12_13_0030 finds a statement's changes of them). */
export const BONUS_HEAD_MERCHANT_COLUMNS = [
  'dba',
  'partner_id',
  'group_id',
  'rm',
  'sales_rep',
  'profile',
  'opened_on',
  'closed_on',
  'ownership_type',
  'equipment_model',
];

/**
 * GetBonus's answer (areas/bonus/queries.ts, bonusRowsJson) is a thousand rows of 27 columns at the large scale.
 * Joining each row to its merchant and ISO and writing every column as JSON, first asked after a change, took
 * 17–19 of its 20 ms: PostgreSQL looks up each column's type and output function for every row it writes as JSON.
 * Each bonus row now keeps the JSON of its answer's first 23 columns (`answer_head`, from `{"id":` up to
 * `"match_count":`) and its merchant's opening day (`merchant_opened_on`); the query adds the match count (staff's
 * or the ISO's), the volume, the last deposit and the activation day, which change without the row being written.
 *
 * Kept by row triggers:
 * - a bonus row inserted, or one of the columns the head is written from set, gets its head as it is written;
 * - a merchant whose shown columns change (its DBA, group, ISO, RM, sales rep, profile, opening or closing day,
 *   ownership or equipment) has its bonus rows' heads written again, and so has every merchant of an ISO whose name
 *   changes (the `answer_head = null` of those updates makes the bonus row trigger write it); 2026_12_13_0030 makes
 *   those two statement triggers.
 *
 * The trigger functions run as the tables' owner (`security definer`), so the head is the same whoever writes. The
 * bonus API test compares the kept answer with the rows worked out by the live join after every kind of change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A text column as JSON (escaped by to_json, as json_agg writes it); a day or an amount as a JSON string.
  const text = (e: string) => `coalesce(to_json(${e})::text, 'null')`;
  const quoted = (e: string) => `coalesce('"' || ${e} || '"', 'null')`;
  const head = [
    `'{"id":' || new.id`,
    `',"mid":' || ${text('new.mid')}`,
    `',"dba_name":' || ${text('m.dba')}`,
    `',"iso_name":' || ${text('p.account_name')}`,
    `',"group_id":' || ${text('m.group_id')}`,
    `',"rm":' || ${text('m.rm')}`,
    `',"sales_rep":' || ${text('m.sales_rep')}`,
    `',"merchant_profile":' || ${text('m.profile')}`,
    `',"open_date":' || ${quoted('m.opened_on::text')}`,
    `',"close_date":' || ${quoted('m.closed_on::text')}`,
    `',"bonus_date":' || ${quoted('new.bonus_date::text')}`,
    `',"bonus_type":' || ${text('new.bonus_type')}`,
    `',"bonus_amount":' || ${quoted('new.bonus_amount::text')}`,
    `',"do_not_pay":' || new.do_not_pay::text`,
    `',"note":' || ${text('new.note')}`,
    `',"worked_datetime":' || ${quoted(`to_char(new.worked_datetime at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)}`,
    `',"worked_by":' || ${text('new.worked_by')}`,
    `',"ownership_type":' || ${text('m.ownership_type')}`,
    `',"equipment_model":' || ${text('m.equipment_model')}`,
    `',"period":' || ${text('new.period')}`,
    `',"window_start":' || ${quoted('new.window_start::text')}`,
    `',"window_end":' || ${quoted('new.window_end::text')}`,
    `',"explanation":' || ${text('new.explanation')}`,
    `',"match_count":'`,
  ].join('\n         || ');
  const shown = BONUS_HEAD_MERCHANT_COLUMNS;
  const row = (r: string) => `(${shown.map((c) => `${r}.${c}`).join(', ')})`;
  await run(db, [
    'alter table bonus_rows add column answer_head text, add column merchant_opened_on date',
    `create function paydesk_bonus_row_answer() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       select m.opened_on,
         ${head}
       into new.merchant_opened_on, new.answer_head
       from merchants m join partners p on p.id = m.partner_id where m.id = new.merchant_id;
       return new;
     end $$`,
    // After bonus_rows_days (triggers of a kind fire in the order of their names).
    `create trigger bonus_rows_head before insert or update of answer_head, merchant_id, mid, bonus_date, bonus_type,
       bonus_amount, do_not_pay, note, worked_datetime, worked_by, period, window_start, window_end, explanation
       on bonus_rows for each row execute function paydesk_bonus_row_answer()`,
    // Only a merchant with bonus rows writes them: an update of every merchant (the seed's ownership types and
    // equipment, before any bonus row exists) would otherwise run a statement, and its statement triggers, per row.
    `create function paydesk_merchant_bonus_answer() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       if exists (select 1 from bonus_rows where merchant_id = new.id) then
         update bonus_rows set answer_head = null where merchant_id = new.id;
       end if;
       return null;
     end $$`,
    `create trigger merchants_bonus_head after update of ${shown.join(', ')} on merchants
       for each row when (${row('old')} is distinct from ${row('new')})
       execute function paydesk_merchant_bonus_answer()`,
    `create function paydesk_partner_bonus_answer() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       update bonus_rows set answer_head = null
       where merchant_id in (select m.id from merchants m where m.partner_id = new.id);
       return null;
     end $$`,
    `create trigger partners_bonus_head after update of account_name on partners
       for each row when (old.account_name is distinct from new.account_name)
       execute function paydesk_partner_bonus_answer()`,
    // The rows there are now; every row has its head from here on.
    'update bonus_rows set answer_head = null',
    'alter table bonus_rows alter column answer_head set not null, alter column merchant_opened_on set not null',
  ]);
}
