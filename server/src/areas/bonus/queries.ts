import {
  addDays,
  BONUS_DEFAULTS,
  type BonusMatch,
  type BonusRow,
  type BonusWindow,
  type ClawbackRow,
  type ExtraBonusRow,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';

/**
 * The bonus module's reads. Every query runs in the request's scope, so an ISO-bound user's rows are their
 * ISO's only (row-level security on bonus_rows, clawback_rows and merchants).
 */

/**
 * A bonus row's address matches among the rows the caller may see (kept with it: migration 2026_12_05_0010).
 * `rls`: whether row-level security applies to the caller (an ISO-bound user); asked for each row unless given.
 */
function matchCount(rls: RawBuilder<unknown> = sql`row_security_active('bonus_rows')`) {
  return sql`(case when ${rls} then b.matches_iso else b.matches_all end)`;
}

/**
 * A bonus row's volume up to its bonus date and its last deposit, as text, from bonus row `b` and `kept` (the first
 * daily row kept): the figures kept with the row, or for a merchant opened (`opened`) before the first daily row
 * kept, its months spread over their days (bonus_old_figures), as the runs read them.
 */
function volumeFigures(opened: RawBuilder<unknown>) {
  const old = (figure: 'volume' | 'last_deposit') =>
    sql`(select o.${sql.ref(figure)} from bonus_old_figures(b.merchant_id, ${opened}, b.bonus_date) o)`;
  return {
    volume: sql`coalesce(case when ${opened} >= kept.first_day then b.days_volume else ${old('volume')} end,
      0)::numeric(14, 2)::text`,
    lastDeposit: sql`(case when ${opened} >= kept.first_day then b.days_last_deposit else ${old('last_deposit')}
      end)::text`,
  };
}

/**
 * A bonus row's columns (spec §3), from bonus_rows b joined to merchants m and partners p, but its explanation and
 * match count (bonusColumns adds them; a clawback row has an explanation of its own). Each is written as the answer
 * carries it (the moment as ISO 8601 text in UTC, as a Date would be sent), so PostgreSQL can write the answer's
 * JSON itself (bonusRowsJson, clawbackRowsJson).
 */
const bonusColumnsShared = sql`b.id, b.mid, m.dba as dba_name, p.account_name as iso_name, m.group_id, m.rm,
  m.sales_rep, m.profile as merchant_profile, m.opened_on::text as open_date, m.closed_on::text as close_date,
  b.bonus_date::text as bonus_date, b.bonus_type, b.bonus_amount::text as bonus_amount, b.do_not_pay, b.note,
  to_char(b.worked_datetime at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as worked_datetime, b.worked_by,
  m.ownership_type, m.equipment_model, b.period, b.window_start::text as window_start,
  b.window_end::text as window_end`;
const bonusColumns = sql`${bonusColumnsShared}, b.explanation, ${matchCount()} as match_count`;

/**
 * The rows of one window. Volume figures of a bonus row are its merchant's up to the bonus date, read as the runs
 * read them: the daily rows, and where the merchant's history reaches back before the daily rows kept,
 * bonus_daily_volume (a month's volume spread over its days where that month's daily rows are gone), so a row of
 * an old window shows the volume its run saw, not 0. A recent window's merchants are new and take the first way.
 */
export async function bonusRows(db: Db, window: BonusWindow): Promise<BonusRow[]> {
  const { rows } = await sql<BonusRow>`${windowRows(window)} order by b.mid, b.id`.execute(db);
  return rows;
}

/**
 * bonusRows as the JSON text of the answer, written by PostgreSQL (platform/http.ts, JsonText): a monthly window
 * is a thousand rows of 27 columns at the large scale, and parsing them into objects, checking them against the
 * output schema and serializing them again took most of the request's time. Each row keeps the JSON of its first
 * 23 columns (`answer_head`, migration 2026_12_06_0010: writing them for every row, joined to its merchant and
 * ISO, took most of the statement); the rest is added here as windowRows works it out: the match count among the
 * rows the caller may see, the volume and last deposit (from a merchant's months for one opened before the first
 * daily row kept), and the activation day. An ISO-bound user sees a row only with its merchant, as with the join.
 * The bonus API test compares this answer with bonusRows after every kind of change, and parses it with the
 * endpoint's schema, which finds nothing to strip.
 */
export async function bonusRowsJson(db: Db, window: BonusWindow): Promise<string> {
  const figures = volumeFigures(sql`b.merchant_opened_on`);
  // The rows come sorted from the window's index (period, window_start, mid, id; migration 2026_12_07_0010) and
  // are joined as they come: an ordered aggregate (`string_agg(... order by ...)`) would sort them again on
  // PostgreSQL 15, copying each row's JSON into the sort. A sorted subquery that is not merged into the outer
  // query gives the aggregate its rows in order (PostgreSQL's manual, "Aggregate Expressions"); the bonus API
  // test compares the whole answer, in order, with bonusRows. Each row's tail is put together first and then added
  // to its head, so the head's 700 bytes are copied once, not once for every piece added; and whether row-level
  // security applies is asked once, not twice for every row.
  const { rows } = await sql<{ j: string }>`
    with kept as (select min(day) as first_day, row_security_active('bonus_rows') as rls from merchant_daily)
    select coalesce('[' || string_agg(r.j, ${', \n '}) || ']', '[]') as j from (
      select b.answer_head || (${matchCount(sql`kept.rls`)}
        || ',"volume":"' || ${figures.volume}
        || '","last_deposit_date":' || coalesce('"' || ${figures.lastDeposit} || '"', 'null')
        || ',"volume_threshold_date":' || coalesce('"' || b.activated_on::text || '"', 'null') || '}') as j
      from bonus_rows b cross join kept
      where b.period = ${window.kind} and b.window_start = ${window.start}::date
        and (not kept.rls or exists (select 1 from merchants m where m.id = b.merchant_id))
      order by b.mid, b.id
    ) r`.execute(db);
  return rows[0]?.j ?? '[]';
}

/**
 * The select of a window's rows (bonusColumns and the volume figures), unordered. A row's volume and last deposit
 * from the daily rows, and its address matches, are kept with it (migration 2026_12_05_0010): its matches among the
 * rows the caller may see (an ISO-bound user's row-level security shows their own ISO's rows only).
 */
function windowRows(window: BonusWindow) {
  // The window's rows first, then each one's merchant by its key: left to itself the planner hashed every
  // merchant to join a thousand rows (2.5× slower).
  const figures = volumeFigures(sql`m.opened_on`);
  return sql`
    with kept as (select min(day) as first_day from merchant_daily),
    b as materialized (
      select * from bonus_rows where period = ${window.kind} and window_start = ${window.start}::date
    )
    select ${bonusColumns}, ${figures.volume} as volume, ${figures.lastDeposit} as last_deposit_date,
      b.activated_on::text as volume_threshold_date
    from b cross join kept
    cross join lateral (select * from merchants m where m.id = b.merchant_id offset 0) m
    join partners p on p.id = m.partner_id`;
}

/** The extra bonus rows of a month, with whether the merchant's regular bonus is paid (spec §2.3). */
export async function extraBonusRows(db: Db, window: BonusWindow): Promise<ExtraBonusRow[]> {
  const rows = await bonusRows(db, window);
  if (rows.length === 0) return [];
  const regular = await db
    .selectFrom('bonus_rows')
    .select(['mid', 'do_not_pay'])
    .where('period', 'in', ['W', 'M'])
    .where(
      'mid',
      'in',
      rows.map((r) => r.mid),
    )
    .execute();
  const doNotPay = new Map(regular.map((r) => [r.mid, r.do_not_pay]));
  return rows.map((r) => ({
    ...r,
    extra_bonus: r.bonus_amount,
    reg_bonus_paid: doNotPay.get(r.mid) === true ? 'No' : r.bonus_type === 'EPD' ? 'Yes' : 'No',
  }));
}

/** The clawbacks of one run date, with the bonus each claws back, in MID order. */
const clawbackSelect = (runDate: string) => sql`
    select ${bonusColumnsShared}, ${matchCount()} as match_count, c.total_volume::text as volume,
      c.last_deposit_date::text as last_deposit_date, c.volume_threshold_date::text as volume_threshold_date,
      c.run_date::text as clawback_date, c.reason_text as clawback_reason, c.flag as clawback_flag, c.do_not_clawback,
      case when b.do_not_pay then 'No' else 'Yes' end as paid, c.amount::text as clawback_amount,
      b.explanation || ' — clawback: ' || c.explanation as explanation
    from clawback_rows c join bonus_rows b on b.id = c.bonus_id join merchants m on m.id = c.merchant_id
      join partners p on p.id = m.partner_id
    where c.run_date = ${runDate}::date
    order by b.mid`;

export async function clawbackRows(db: Db, runDate: string): Promise<ClawbackRow[]> {
  const { rows } = await sql<ClawbackRow>`${clawbackSelect(runDate)}`.execute(db);
  return rows;
}

/**
 * clawbackRows as the JSON text of the answer, written by PostgreSQL (platform/http.ts, JsonText): json_agg writes
 * each row as row_to_json does (the columns are text, integers and booleans, as the driver gives them), in the
 * sorted subquery's order (not merged into the outer query, so the aggregate takes its rows in order, as
 * bonusRowsJson).
 * The bonus API test compares the whole answer, in order, with clawbackRows.
 */
export async function clawbackRowsJson(db: Db, runDate: string): Promise<string> {
  const { rows } = await sql<{ j: string }>`
    select coalesce(json_agg(r)::text, '[]') as j from (${clawbackSelect(runDate)}) r`.execute(db);
  return rows[0]?.j ?? '[]';
}

/** Earlier bonused merchants at the same address as each given MID's bonus. */
export async function matchesByMid(db: Db, mids: string[]): Promise<(BonusMatch & { for_mid: string })[]> {
  const { rows } = await sql<BonusMatch & { for_mid: string }>`
    select b.mid as for_mid, e.mid, m.dba as dba_name, p.account_name as iso_name, m.address, m.city, m.state,
      m.zip as zipcode, e.bonus_date::text as bonus_date,
      (case when exists (select 1 from clawback_rows c where c.mid = e.mid and not c.do_not_clawback)
        then 1 else 0 end)::int as clawed_back
    from bonus_rows b
    join bonus_rows e on e.address_key = b.address_key and e.bonus_date < b.bonus_date and e.mid <> b.mid
      and e.period in ('W', 'M')
    join merchants m on m.id = e.merchant_id join partners p on p.id = m.partner_id
    where b.mid = any(${mids}::text[]) and b.period in ('W', 'M')
    order by b.mid, e.bonus_date, e.mid`.execute(db);
  return rows;
}

/** Every bonused merchant with matches, the matching MIDs as a comma list. */
export async function allMatches(db: Db) {
  const { rows } = await sql<{ mid: string; bonus_date: string; matches: string }>`
    select b.mid, b.bonus_date::text as bonus_date, string_agg(e.mid, ',' order by e.bonus_date, e.mid) as matches
    from bonus_rows b
    join bonus_rows e on e.address_key = b.address_key and e.bonus_date < b.bonus_date and e.mid <> b.mid
      and e.period in ('W', 'M')
    -- The rows with a match among every row (kept, 2026_12_05_0010; an ISO-bound user's matches are among them),
    -- found by their partial index (2026_12_09_0060) instead of joining every row at its address.
    where b.period in ('W', 'M') and b.matches_all > 0
    group by b.mid, b.bonus_date
    order by b.bonus_date desc, b.mid`.execute(db);
  return rows;
}

/** How many days an Activation tab shows merchants after their approval once they are past their volume days. */
const ACTIVATION_LOOKBACK_DAYS = 30;

/**
 * The first approval day the Activation tab shows on `today`: the longest volume days (the defaults' or a
 * specification's the user may read) and 30 days more before it.
 */
export async function activationFrom(db: Db, today: string): Promise<string> {
  const { rows } = await sql<{ days: number | null }>`
    select max(volume_days) as days from activation_specs`.execute(db);
  return addDays(
    today,
    -(Math.max(BONUS_DEFAULTS.volumeDays, rows[0]?.days ?? 0) + ACTIVATION_LOOKBACK_DAYS),
  );
}

/**
 * The Activation tab's rows approved on `days` (each within activationFrom and `today`), as JSON written by
 * PostgreSQL: per day, its rows by MID joined by commas (no brackets), for the merchants approved that day that are
 * within their volume days or activated, or expired less than 30 days before `today`. They come from the rows the
 * writes keep (`activation_rows`, migration 2026_12_18_0010).
 *
 * A row kept on `today`, or after its deadline had passed, is sent as kept. Otherwise the request works out its
 * volume and activation day: the kept ones and the days after (a row kept before `today` and before its deadline),
 * or from its approval day (a row kept after `today`, by a database whose day is ahead of this server's), then its
 * days remaining and status on `today`.
 */
export async function activationDays(
  db: Db,
  today: string,
  days: readonly string[],
): Promise<Map<string, string>> {
  // Each day's part on its own (a lateral per day asked, its rows read by the approval-day index in MID order), not
  // every row of the days asked sorted by day and then grouped: at the large scale 5.6 against 7.0 ms in
  // PostgreSQL for the whole list, at xl 13.4 against 20.6 (docs/bench.md). A day's rows in two scans, not one shared
  // list: a shared one (a CTE read twice) copied every row's JSON into a list of its own first.
  // Kept within its span as asked: kept on the day asked, or both on or after its deadline.
  const keptAsAsked = sql`least(a.as_of, a.deadline) = least(${today}::date, a.deadline)`;
  const { rows } = await sql<{ day: string; json: string }>`
    select d.day::text as day, x.json
    from unnest(${days}::date[]) d(day)
    cross join lateral (
      select string_agg(r.head || case when r.settled then r.tail
          else paydesk_activation_tail(r.volume, r.volume_days, r.deadline, r.reached, ${today}::date) end,
          ',' order by r.mid) as json
      from (
        -- A row kept within its span as asked: as kept.
        select a.mid, a.head, a.tail, a.volume_days, a.deadline, a.volume, a.activated_on as reached,
          a.as_of = ${today}::date or (a.deadline < a.as_of and a.as_of <= ${today}::date) as settled
        from activation_rows a
        where a.approved_on = d.day and ${keptAsAsked}
        union all
        -- Otherwise its days after those kept, or all of them for a row kept after the day asked.
        select k.mid, k.head, k.tail, k.volume_days, k.deadline,
          case when k.after_kept then k.volume else 0 end + coalesce(l.volume, 0),
          case when k.after_kept then coalesce(k.activated_on, l.reached) else l.reached end, false
        from (select a.*, a.as_of < ${today}::date as after_kept from activation_rows a
          where a.approved_on = d.day and not ${keptAsAsked}) k
        left join lateral (
          select sum(s.volume) as volume, min(s.day) filter (where s.run >= k.threshold) as reached
          from (select v.day, v.volume,
                  case when k.after_kept then k.volume else 0 end + sum(v.volume) over (order by v.day) as run
                from bonus_daily_volume(array[k.merchant_id],
                  case when k.after_kept then k.as_of + 1 else k.approved_on end,
                  least(${today}::date, k.deadline)) v) s) l on true
      ) r
      where r.reached is not null or r.deadline + ${ACTIVATION_LOOKBACK_DAYS}::int >= ${today}::date
    ) x
    where d.day <= ${today}::date and x.json is not null`.execute(db);
  return new Map(rows.map((r) => [r.day, r.json]));
}

/**
 * Writes again, as of the database's day, the Activation tab's kept rows of an earlier day whose figures move with
 * the day: those written before their deadline (their volume, days remaining and status). Until then every first ask
 * of the day works those rows' days since out in the statement (activationDays): the whole list's statement took
 * 34 ms at the large scale and 102 at xl instead of 6 and 13 (docs/bench.md). The day's figures write the rows
 * too, when they arrive; this is for the hours before. The merchants whose rows it wrote, 0 when every row is of
 * today or settled.
 */
export async function activationRowsOfToday(db: Db): Promise<number> {
  const { rows } = await sql<{ ids: number[] }>`
    select array(select merchant_id from activation_rows where as_of < current_date and deadline >= as_of
      order by merchant_id) as ids`.execute(db);
  const ids = rows[0]?.ids ?? [];
  if (ids.length > 0) await sql`select paydesk_activation_keep(${ids}::integer[])`.execute(db);
  return ids.length;
}
