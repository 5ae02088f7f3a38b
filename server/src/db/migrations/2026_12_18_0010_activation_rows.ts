import type { Kysely } from 'kysely';
import { ACTIVATION_MERCHANT_COLUMNS } from './2026_12_13_0010_activation_parts';
import {
  changedIds,
  definerFunction,
  keepingTriggers,
  keptForIso,
  partsTriggerFunction,
  queueWrites,
  raiseParts,
  run,
  statementTriggers,
} from './helpers';

/**
 * The Activation tab's list (/api/bonus/GetActivation) kept per merchant by the writes, in `activation_rows`.
 *
 * The list was kept in parts by approval day (migration 2026_12_13_0010), but any write to the daily figures raised
 * every part: the first ask after it worked out every merchant of the lookback again, their days of volume read
 * through bonus_daily_volume, their activation found in JavaScript and their JSON written (190 / 250 ms at the large
 * scale, docs/bench.md). The daily figures are written every day, for every merchant.
 *
 * Each merchant approved within the list's reach has one row (the longest volume days and 30 more, and two days for a
 * server whose day is behind the database's; older rows are dropped as the reach moves on), written by the
 * statement that changes what it depends on:
 *
 * - `volume_days`, `threshold`, `deadline`: its group's activation specification (the newest that names the group),
 *   else the defaults (30 days, $250); the deadline is the last of its volume days, the approval day being the first;
 * - `volume`, `activated_on`: its volume from its approval day through `as_of` or its deadline, whichever comes
 *   first, and the first of those days on which the running total reached the threshold; `as_of` is the database's
 *   day when the row was written. The days come from bonus_daily_volume (the daily figures, or a month's figures
 *   spread over its days when the month has no daily row), as the bonus runs read them;
 * - `head`: the row's JSON from `mid` through `volume_threshold`, without the closing brace; `tail`: the rest
 *   (volume, volume days, days remaining, status, activation day) as of `as_of`.
 *
 * The request (areas/bonus/queries.ts, activationDays) sends `head` and `tail` of a row written on the day asked or
 * after its deadline had passed. Otherwise it adds the days after `as_of` (one day, the morning before the day's
 * figures arrive), or works a row written after the day asked (another time zone) out from its approval day, and
 * writes the tail for the day asked.
 *
 * What writes a row (statement triggers, with the transition tables):
 * - merchants: the rows inserted, deleted, or whose MID, DBA, ISO, group, RM, sales rep, profile, opening or approval
 *   day changed;
 * - partners: the merchants of an ISO renamed;
 * - merchant_daily: the merchants of the rows written whose day falls within their approval day and deadline;
 * - merchant_monthly: likewise for a month within them that has no daily row (a spread month);
 * - activation_specs: every row (a specification changes its groups' merchants and the reach);
 * - a truncate of any of these: every row again.
 * A row written again as it was is left alone, unless it was written before its deadline had passed.
 *
 * The seed holds these triggers while it loads and writes every row once at the end (seed/bulk.ts,
 * holdKeptRowTriggers). The list stays kept in parts by approval day (platform/answerCache.ts): a statement
 * writing `activation_rows` raises the parts of the days of its old and new rows, a truncate every part; the
 * merchants' and partners' part triggers of 2026_12_13_0010 and the version raises by the figures, specifications
 * and groups are dropped. ISO-bound users read their own ISO's rows (row-level security by `partner_id`); every row
 * is worked out with every specification, whoever writes.
 */
/** The defaults of a group without a specification (BONUS_DEFAULTS in the domain, as of this migration). */
const DEFAULT_DAYS = 30;
const DEFAULT_THRESHOLD = 250;
/** How many days the list shows merchants after their deadline (areas/bonus/queries.ts, ACTIVATION_LOOKBACK_DAYS). */
const LOOKBACK = 30;

/** The trigger function of a source table and its triggers (helpers.ts, keepingTriggers). */
const keeper = (table: string, ids: Parameters<typeof keepingTriggers>[3]) =>
  keepingTriggers('paydesk_activation_keep', 'activation_keep', table, ids);

/** The merchants of `rows` (daily figures) whose day is within their approval day and deadline. */
const ofDays = (rows: string) => `
  select distinct a.merchant_id from ${rows} d join activation_rows a on a.merchant_id = d.merchant_id
  where d.day between a.approved_on and a.deadline`;

/** The merchants of `rows` (monthly figures) whose month meets their span and has no daily row (a spread month). */
const ofMonths = (rows: string) => `
  select distinct a.merchant_id from ${rows} d join activation_rows a on a.merchant_id = d.merchant_id
  where d.month <= a.deadline and (d.month + interval '1 month')::date > a.approved_on
    and not exists (select 1 from merchant_daily x where x.merchant_id = d.merchant_id
      and x.day >= d.month and x.day < (d.month + interval '1 month')::date)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    // The parts by approval day, their triggers and the version raises the rows now stand for.
    'drop trigger if exists merchants_activation_parts_insert on merchants',
    'drop trigger if exists merchants_activation_parts_update on merchants',
    'drop trigger if exists merchants_activation_parts_delete on merchants',
    'drop trigger if exists merchants_activation_parts_truncate on merchants',
    'drop trigger if exists partners_activation_parts_insert on partners',
    'drop trigger if exists partners_activation_parts_update on partners',
    'drop trigger if exists partners_activation_parts_delete on partners',
    'drop trigger if exists partners_activation_parts_truncate on partners',
    'drop function if exists paydesk_merchants_activation_parts()',
    'drop function if exists paydesk_partners_activation_parts()',
    'drop trigger if exists merchant_daily_activation_answer_version on merchant_daily',
    'drop trigger if exists merchant_monthly_activation_answer_version on merchant_monthly',
    'drop trigger if exists activation_specs_activation_answer_version on activation_specs',
    'drop trigger if exists groups_activation_answer_version on groups',
    `delete from answer_part_versions where name = 'activation'`,
    `delete from answer_versions where name = 'activation'`,
    `create table activation_rows (
       merchant_id integer primary key,
       partner_id integer not null,
       mid text not null,
       approved_on date not null,
       volume_days integer not null,
       threshold numeric not null,
       deadline date not null,
       as_of date not null,
       volume numeric not null,
       activated_on date,
       head text not null,
       tail text not null
     ) with (fillfactor = 50)`,
    // Half of each page left free: a row written again (each day, for the merchants within their volume days) stays
    // on its page (a HOT update: no indexed column changes), so the rows stay in the order they were written, by
    // approval day, and a range of days is a few pages.
    // The list reads a range of approval days, newest first, each day's rows by MID.
    'create index activation_rows_day on activation_rows (approved_on, mid)',
    // The tail of a row's JSON (its volume, volume days, days remaining, status and activation day) on `today`.
    `create function paydesk_activation_tail(volume numeric, volume_days integer, deadline date, reached date,
       today date) returns text language sql stable parallel safe as $$
       select concat(',"volume":', to_json(round(volume, 2)::text)::text, ',"volume_days":', volume_days,
         ',"days":', case when reached is not null then 0 else greatest(0, deadline - today) end,
         ',"activation_status":', case when reached is not null then '"Activated"'
           when deadline < today then '"Expired"' else '"Pending"' end,
         ',"activated_on":', coalesce(to_json(reached::text)::text, 'null'), '}')
     $$`,
    definerFunction(
      'paydesk_activation_keep',
      'ids integer[]',
      'void',
      `declare
         -- The first approval day kept: the list's reach (the longest volume days and ${LOOKBACK} more) and two days,
         -- for a server whose day is behind the database's.
         bound date := current_date - (greatest(${DEFAULT_DAYS},
           (select coalesce(max(volume_days), 0) from activation_specs)) + ${LOOKBACK} + 2);
       begin
         if ids is null then
           delete from activation_rows;
         else
           if cardinality(ids) = 0 then
             return;
           end if;
           delete from activation_rows a where a.approved_on < bound or (a.merchant_id = any(ids)
             and not exists (select 1 from merchants m where m.id = a.merchant_id and m.approved_on >= bound));
         end if;
         insert into activation_rows as r (merchant_id, partner_id, mid, approved_on, volume_days, threshold, deadline,
           as_of, volume, activated_on, head, tail)
         select m.id, m.partner_id, m.mid, m.approved_on, s.days, s.threshold, s.deadline, current_date,
           coalesce(v.volume, 0), v.reached,
           concat('{"mid":', to_json(m.mid)::text, ',"dba_name":', to_json(m.dba)::text,
             ',"iso_name":', to_json(p.account_name)::text, ',"group_id":', to_json(m.group_id)::text,
             ',"rm":', coalesce(to_json(m.rm)::text, 'null'),
             ',"sales_rep":', coalesce(to_json(m.sales_rep)::text, 'null'),
             ',"merchant_profile":', to_json(m.profile)::text,
             ',"open_date":', coalesce(to_json(m.opened_on::text)::text, 'null'),
             ',"volume_threshold":', to_json(round(s.threshold, 2)::text)::text),
           paydesk_activation_tail(coalesce(v.volume, 0), s.days, s.deadline, v.reached, current_date)
         from merchants m
         join partners p on p.id = m.partner_id
         cross join lateral (
           select coalesce(sp.volume_days, ${DEFAULT_DAYS}) as days,
             coalesce(sp.volume_threshold, ${DEFAULT_THRESHOLD})::numeric as threshold,
             m.approved_on + greatest(coalesce(sp.volume_days, ${DEFAULT_DAYS}), 1) - 1 as deadline
           from (select 1) one
           left join lateral (
             select x.volume_days, x.volume_threshold from activation_specs x
             where m.group_id = any(string_to_array(regexp_replace(x.group_id, '\\s+', '', 'g'), ','))
             order by x.id desc limit 1) sp on true) s
         left join lateral (
           select sum(d.volume) as volume, min(d.day) filter (where d.run >= s.threshold) as reached
           from (select v.day, v.volume, sum(v.volume) over (order by v.day) as run
                 from bonus_daily_volume(array[m.id], m.approved_on, least(current_date, s.deadline)) v) d) v on true
         where m.approved_on >= bound and (ids is null or m.id = any(ids))
         -- In the order the list reads them (see the table's fill factor).
         order by m.approved_on, m.mid
         on conflict (merchant_id) do update set partner_id = excluded.partner_id, mid = excluded.mid,
           approved_on = excluded.approved_on, volume_days = excluded.volume_days, threshold = excluded.threshold,
           deadline = excluded.deadline, as_of = excluded.as_of, volume = excluded.volume,
           activated_on = excluded.activated_on, head = excluded.head, tail = excluded.tail
         -- A row written again as it was is left alone (its day's part is not raised), unless its list row still
         -- depends on the day (kept before its deadline had passed).
         where (r.partner_id, r.mid, r.approved_on, r.volume_days, r.threshold, r.deadline, r.volume, r.activated_on,
                r.head, r.tail)
             is distinct from (excluded.partner_id, excluded.mid, excluded.approved_on, excluded.volume_days,
                excluded.threshold, excluded.deadline, excluded.volume, excluded.activated_on, excluded.head,
                excluded.tail)
           or (r.as_of <> excluded.as_of and r.deadline >= r.as_of);
       end`,
    ),
    ...keeper('merchants', {
      insert: 'select id from new_rows',
      update: `select id from (${changedIds(ACTIVATION_MERCHANT_COLUMNS)}) c union select id from (select id from old_rows except select id from new_rows) gone`,
      delete: 'select id from old_rows',
    }),
    ...keeper('partners', {
      update: `select m.id from merchants m where m.partner_id in (${changedIds(['account_name'])})`,
      delete: 'select m.id from merchants m where m.partner_id in (select id from old_rows)',
    }),
    ...keeper('merchant_daily', {
      insert: ofDays('new_rows'),
      update: ofDays(
        '(select merchant_id, day from new_rows union all select merchant_id, day from old_rows)',
      ),
      delete: ofDays('old_rows'),
    }),
    ...keeper('merchant_monthly', {
      insert: ofMonths('new_rows'),
      update: ofMonths(
        '(select merchant_id, month from new_rows union all select merchant_id, month from old_rows)',
      ),
      delete: ofMonths('old_rows'),
    }),
    // A specification changes the rows of its groups' merchants, and the longest volume days the rows kept reach
    // back by: every row again (about 4,500 at the large scale).
    ...keeper('activation_specs', { insert: null, update: null, delete: null }),
    // Every merchant's row, once.
    'select paydesk_activation_keep(null)',
    // The list is kept in parts by approval day: a statement writing rows raises their days (old and new).
    `insert into answer_versions (name) values ('activation')`,
    partsTriggerFunction('paydesk_activation_rows_parts', 'activation', {
      insert: raiseParts('activation', 'select approved_on::text from new_rows'),
      update: raiseParts(
        'activation',
        'select approved_on::text from new_rows union all select approved_on::text from old_rows',
      ),
      delete: raiseParts('activation', 'select approved_on::text from old_rows'),
    }),
    ...statementTriggers('activation_rows', 'parts', 'paydesk_activation_rows_parts'),
    // Written only by the triggers of tables that queue (2026_12_15_0010), which hold the lock already; queued as
    // well, as every table whose writes raise a kept answer's version.
    queueWrites('activation_rows'),
  ]);
  await keptForIso(db, 'activation_rows');
}
