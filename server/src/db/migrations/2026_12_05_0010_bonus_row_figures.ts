import type { Kysely } from 'kysely';
import { run, statementTriggers } from './helpers';

/**
 * GetBonus (areas/bonus/queries.ts) shows each bonus row's volume up to its bonus date and its address matches
 * (earlier weekly or monthly bonus rows of other MIDs at the same address). Summed and counted per row each time the
 * answer is first asked after a change, they were 11 of its 20 ms at the large scale (1,059 rows). They are kept
 * with the row now, by the statements that change what they are worked out from:
 *
 * - `days_volume` and `days_last_deposit`: the merchant's daily rows up to the bonus date, summed, and the last day
 *   with volume (null when there is none). A statement writing `merchant_daily` works them out again for the bonus
 *   rows of the merchants it wrote whose bonus date is on or after the first day it wrote; a bonus row inserted, or
 *   whose merchant or bonus date is set, gets them as it is written (a row trigger). The query still reads
 *   `bonus_daily_volume` for a merchant opened before the first day kept (its months spread over their days),
 *   through `bonus_old_figures`.
 * - `matches_all` and `matches_iso`: the matches among every row (staff), and among the rows of the row's own ISO
 *   (an ISO-bound user, whose row-level security shows only those). A statement writing bonus rows counts them again
 *   for every row at the addresses it touched.
 *
 * The trigger functions run as the tables' owner (`security definer`), so a count is over every row whoever writes.
 * The query picks the count by `row_security_active('bonus_rows')`. The bonus API test compares every row's kept
 * figures with the figures worked out from the raw rows, after every kind of change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const days = (rows: string) => `
    update bonus_rows b set days_volume = s.volume, days_last_deposit = s.last_deposit
    from (select r.id, sum(d.volume) as volume, max(d.day) filter (where d.volume > 0) as last_deposit
          from (${rows}) r left join merchant_daily d on d.merchant_id = r.merchant_id and d.day <= r.bonus_date
          group by r.id) s
    where b.id = s.id and (b.days_volume, b.days_last_deposit) is distinct from (s.volume, s.last_deposit)`;
  // The bonus rows of the merchants a statement wrote whose bonus date is on or after the first day it wrote.
  const ofDays = (changed: string) => `
    select b2.id, b2.merchant_id, b2.bonus_date from bonus_rows b2
    join (select merchant_id, min(day) as from_day from (${changed}) x group by merchant_id) c
      on c.merchant_id = b2.merchant_id and b2.bonus_date >= c.from_day`;
  await run(db, [
    `alter table bonus_rows add column days_volume numeric, add column days_last_deposit date,
       add column matches_all integer not null default 0, add column matches_iso integer not null default 0`,
    'create index bonus_rows_merchant on bonus_rows (merchant_id, bonus_date)',
    // The rows at an address of every period (bonus_rows_address holds the weekly and monthly ones only).
    'create index bonus_rows_address_key on bonus_rows (address_key)',
    // The addresses are joined as a set: `= any(keys)` would compare each row with every address of the array
    // (the fill passes every address there is).
    `create function paydesk_bonus_matches(keys text[]) returns void language sql security definer
     set search_path = public as $$
       update bonus_rows b set matches_all = c.all_n, matches_iso = c.iso_n
       from (select b2.id, count(e.id)::int as all_n, (count(e.id) filter (where e.partner_id = b2.partner_id))::int as iso_n
             from bonus_rows b2
             left join bonus_rows e on e.address_key = b2.address_key and e.bonus_date < b2.bonus_date
               and e.mid <> b2.mid and e.period in ('W', 'M')
             where b2.address_key in (select unnest(keys))
             group by b2.id) c
       where b.id = c.id and (b.matches_all, b.matches_iso) is distinct from (c.all_n, c.iso_n)
     $$`,
    // Its own updates of the kept figures (trigger depth 2) change none of what they are worked out from.
    `create function paydesk_bonus_rows_figures() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       if pg_trigger_depth() > 1 or tg_op = 'TRUNCATE' then return null; end if;
       if tg_op = 'INSERT' then
         perform paydesk_bonus_matches(array(select distinct address_key from new_rows where address_key is not null));
       elsif tg_op = 'UPDATE' then
         perform paydesk_bonus_matches(array(
           select k from new_rows n join old_rows o on o.id = n.id,
             lateral (values (n.address_key), (o.address_key)) v(k)
           where k is not null and (n.address_key, n.bonus_date, n.mid, n.period, n.partner_id)
             is distinct from (o.address_key, o.bonus_date, o.mid, o.period, o.partner_id)));
       else
         perform paydesk_bonus_matches(array(select distinct address_key from old_rows where address_key is not null));
       end if;
       return null;
     end $$`,
    ...statementTriggers('bonus_rows', 'figures', 'paydesk_bonus_rows_figures'),
    // A row's days as it is written (no second version of each new row, as an update after the insert would make).
    `create function paydesk_bonus_row_days() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       select sum(d.volume), max(d.day) filter (where d.volume > 0) into new.days_volume, new.days_last_deposit
       from merchant_daily d where d.merchant_id = new.merchant_id and d.day <= new.bonus_date;
       return new;
     end $$`,
    `create trigger bonus_rows_days before insert or update of merchant_id, bonus_date on bonus_rows
       for each row execute function paydesk_bonus_row_days()`,
    `create function paydesk_merchant_daily_bonus_days() returns trigger language plpgsql security definer
     set search_path = public as $$
     begin
       if tg_op = 'TRUNCATE' then
         update bonus_rows set days_volume = null, days_last_deposit = null
         where days_volume is not null or days_last_deposit is not null;
         return null;
       end if;
       if not exists (select 1 from bonus_rows) then return null; end if;
       if tg_op = 'INSERT' then
         ${days(ofDays('select merchant_id, day from new_rows'))};
       elsif tg_op = 'UPDATE' then
         ${days(ofDays('select merchant_id, day from new_rows union all select merchant_id, day from old_rows'))};
       else
         ${days(ofDays('select merchant_id, day from old_rows'))};
       end if;
       return null;
     end $$`,
    ...statementTriggers('merchant_daily', 'bonus_days', 'paydesk_merchant_daily_bonus_days'),
    // A merchant opened before the first daily row kept: its figures from bonus_daily_volume, in a function of its
    // own, which GetBonus calls for those rows only. The SQL function would be inlined, and the statement planned
    // with both of its branches each time, for rows that are seldom there (1 to 3 of the statement's 20 ms).
    `create function bonus_old_figures(merchant integer, from_day date, to_day date)
     returns table (volume numeric, last_deposit date) language plpgsql stable as $$
     begin
       return query select sum(v.volume), max(v.day) filter (where v.volume > 0)
         from bonus_daily_volume(array[merchant], from_day, to_day) v;
     end $$`,
    // The rows there are now.
    days('select id, merchant_id, bonus_date from bonus_rows'),
    `select paydesk_bonus_matches(array(select distinct address_key from bonus_rows where address_key is not null))`,
  ]);
}
