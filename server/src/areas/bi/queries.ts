import { createHash } from 'node:crypto';
import {
  type IncomeRow,
  type IsoAnalyticsAnswer,
  type IsoInfoRow,
  type MccRow,
  STATE_CENTERS,
  type TransactionRow,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { BI_PROFILES, isoInfoSums, OPEN_TODAY } from '../../db/derived';
import { cacheFor, type PiecedText } from '../../platform/answerCache';
import { badRequest } from '../../platform/errors';
import { bytesPiece, lazyPiece, type Piece } from '../../platform/gzipPieces';

/*
 * Business Intelligence (docs/bi.md defines every figure). Every query runs in the caller's ISO scope, so an
 * ISO-bound user's groups and merchants are their own ISO's only. A merchant is open when it has no closing
 * day or closes after today; its deal is its approval.
 */

/**
 * How many of a rollup row's closing days (sorted) have come: its merchants closed today. Usually the last has,
 * and then all have: the row's count of them (`closed`) and its last one (`last_closing`) are kept beside the days
 * (migration 2026_12_08_0020), so only a row with a day still to come reads its days. `row` is the row's alias.
 */
const closedToday = (row: string) => {
  const col = (name: string) => sql.ref(`${row}.${name}`);
  return sql`(case when coalesce(${col('last_closing')} <= current_date, true) then ${col('closed')}
       else (select count(*) from unnest(${col('closings')}) c where c <= current_date) end)`;
};

/** The partner groups with merchants, each with its ISO. */
export async function analyticsOptions(db: Db): Promise<{ partner: string; iso: string }[]> {
  const { rows } = await sql<{ partner: string; iso: string }>`
    select distinct g.group_name as partner, p.account_name as iso
    from groups g join partners p on p.id = g.partner_id
    where exists (select 1 from merchants m where m.group_id = g.group_id)
    order by 1, 2`.execute(db);
  return rows;
}

interface ChosenGroup {
  group_id: string;
  group_name: string;
}

/**
 * The groups named (none: every group with merchants), as a filter of the group rollups (db/derived.ts); a name
 * the caller cannot see is refused. Every group of the caller's scope needs no filter: row-level security keeps
 * the rollups to it, and they hold rows for groups with merchants only.
 */
async function chosenGroups(
  db: Db,
  names: readonly string[],
): Promise<{ groups: ChosenGroup[]; of: (alias: string) => RawBuilder<unknown> }> {
  if (names.length === 0) {
    const { rows } = await sql<ChosenGroup>`
      select g.group_id, g.group_name from groups g
      where exists (select 1 from bi_group_totals t where t.group_id = g.group_id)`.execute(db);
    return { groups: rows, of: () => sql`true` };
  }
  const { rows } = await sql<ChosenGroup & { deals: boolean }>`
    select g.group_id, g.group_name, exists (select 1 from bi_group_totals t where t.group_id = g.group_id) as deals
    from groups g where g.group_name in (${sql.join(names)})`.execute(db);
  const known = new Set(rows.map((r) => r.group_name));
  const missing = names.find((n) => !known.has(n));
  if (missing !== undefined) throw badRequest(`Unknown partner group: ${missing}`);
  const groups = rows.filter((r) => r.deals).map(({ group_id, group_name }) => ({ group_id, group_name }));
  const ids = groups.map((g) => g.group_id);
  return {
    groups,
    of: (alias) =>
      ids.length === 0 ? sql`false` : sql`${sql.ref(`${alias}.group_id`)} in (${sql.join(ids)})`,
  };
}

/**
 * output[0]: approvals per group and month, by month then group name, as JSON text. Every group's whole history
 * is tens of thousands of rows (36,000 at the large scale). PostgreSQL hands over one row per group: its months (as
 * day numbers) and their counts, each list as one text, kept with the group's totals (bi_group_totals, migration
 * 2026_12_08_0030). They are read here digit by digit, named, sorted and merged (only if two groups share a name)
 * on one number per row, which is several times cheaper than sorting text under the database's collation or
 * comparing objects, and the JSON is written as bytes into one buffer. No object or string is made per row: the
 * driver's 36,000 row objects and their strings were what the young generation's collections copied, and the
 * slowest asks were those collections.
 *
 * The chart's bytes are also kept between answers (`kept`): the answer's version rises with every write to a
 * merchant, its income, a group or a partner, and most of those (an income import, a merchant's closing, its DBA)
 * leave every group's approvals as they were. The same statement answers an MD5 of the groups' rows it reads
 * (their months and counts, by group ID), and those rows only when that differs from the kept chart's; with the
 * groups' names and IDs unchanged as well, the kept bytes are the chart of this snapshot. At xl the chart is 10 MB
 * written from 110,000 months: the usual first ask after a change reads one row instead (docs/bench.md).
 *
 * A large chart is sent in pieces, one per year of approvals (the chart is in month order), each compressed once
 * for as long as it is kept. When the rows have changed (an approval moved) and the chosen groups' names and IDs
 * have not, the groups whose rows differ from those the kept chart was written from name the years they reach (their
 * months before and after); only those years are sorted and written again (rewrittenYears), and the other years'
 * pieces are the kept chart's. A year written again whose bytes are the kept chart's keeps its piece too.
 */
async function approvalsGraph(
  db: Db,
  chosen: Awaited<ReturnType<typeof chosenGroups>>,
  kept?: { database: Db; key: string },
): Promise<Piece[]> {
  const memo = kept ? cacheFor(keptGraphs, kept.database) : null;
  const names = kept ? createHash('sha256').update(JSON.stringify(chosen.groups)).digest('base64') : '';
  const held = kept ? memo?.get(kept.key) : undefined;
  const known = held && held.names === names ? held.digest : '';
  const { rows } = await sql<{ digest: string; group_id: string | null; days: string; counts: string }>`
    with d as (
      select md5(coalesce(string_agg(t.group_id || ':' || t.approval_months || ':' || t.approval_counts, ','
                 order by t.group_id collate "C"), '')) as digest
      from bi_group_totals t where ${chosen.of('t')})
    select d.digest, t.group_id, t.approval_months as days, t.approval_counts as counts
    from d left join bi_group_totals t on d.digest <> ${known} and ${chosen.of('t')}`.execute(db);
  const digest = rows[0]?.digest ?? '';
  if (kept && memo && held && known !== '' && digest === known) {
    // Used now: the least recently used chart goes first.
    keepRecent(memo, kept.key, held, KEPT_GRAPHS);
    return held.years.map((y) => y.piece);
  }
  const graphRows = rows.filter((r): r is GraphRow & { digest: string } => r.group_id !== null);
  const same = held && held.names === names ? held : undefined;
  const layout = same ? same.layout : layoutOf(chosen.groups);
  const written = (same && rewrittenYears(same, graphRows, layout)) ?? graphBytes(layout, graphRows);
  const size = written.years.reduce((n, y) => n + y.bytes.length, 0);
  if (written.all.length === 0) return [bytesPiece(Buffer.from('[]'))];
  if (!same && size < KEEP_GRAPH_FROM) return [bytesPiece(Buffer.concat(written.years.map((y) => y.bytes)))];
  // A year written as the kept chart has it keeps its piece (its CRC and deflate data made once); a year not
  // written again is the kept chart's (rewrittenYears).
  const before = new Map((held?.years ?? []).map((y) => [y.year, y]));
  const fresh = new Map(written.years.map((y) => [y.year, y.bytes]));
  const made = written.all.map((year) => {
    const bytes = fresh.get(year);
    const was = before.get(year);
    if (bytes === undefined) return was as { year: number; piece: Piece };
    return was?.piece.bytes?.equals(bytes) ? was : { year, piece: bytesPiece(bytes) };
  });
  if (kept && memo) {
    const groups = new Map(graphRows.map((r) => [r.group_id, { days: r.days, counts: r.counts }]));
    keepRecent(memo, kept.key, { digest, names, layout, groups, years: made }, KEPT_GRAPHS);
  }
  return made.map((y) => y.piece);
}

/**
 * The years of a kept chart (same groups, names and order) that its groups' changed rows reach, written again; the
 * others are the kept chart's. Undefined when the chart is better written whole: the first or last year changed
 * (the brackets move), or a year not written again is missing from the kept chart.
 */
function rewrittenYears(
  held: KeptGraph,
  rows: readonly GraphRow[],
  layout: Layout,
): ReturnType<typeof graphBytes> | undefined {
  const cache = new Map<number, { month: number; text: Buffer }>();
  const reached = new Set<number>();
  // A group's months and counts ('{5965,5996}', '{3,1}') as count by month.
  const monthsOf = (row: { days: string; counts: string } | undefined) => {
    const months = new Map<number, string>();
    if (row === undefined) return months;
    const n = row.counts.slice(1, -1).split(',');
    row.days
      .slice(1, -1)
      .split(',')
      .forEach((day, i) => {
        if (day !== '') months.set(Number(day), n[i] ?? '');
      });
    return months;
  };
  // The years of the months whose count differs (or that one side lacks).
  const compare = (was: { days: string; counts: string } | undefined, now: GraphRow | undefined) => {
    const before = monthsOf(was);
    const after = monthsOf(now);
    for (const [day, count] of after)
      if (before.get(day) !== count) reached.add(Math.floor(dayOf(cache, day).month / 12));
    for (const day of before.keys())
      if (!after.has(day)) reached.add(Math.floor(dayOf(cache, day).month / 12));
  };
  const seen = new Set<string>();
  for (const r of rows) {
    seen.add(r.group_id);
    const was = held.groups.get(r.group_id);
    if (was?.days !== r.days || was.counts !== r.counts) compare(was, r);
  }
  for (const [group, was] of held.groups) if (!seen.has(group)) compare(was, undefined);
  const written = graphBytes(layout, rows, reached);
  const kept = held.years.map((y) => y.year);
  if (written.all[0] !== kept[0] || written.all.at(-1) !== kept.at(-1)) return undefined;
  const keptYears = new Set(kept);
  if (written.all.some((y) => !reached.has(y) && !keptYears.has(y))) return undefined;
  return written;
}

/**
 * Charts kept per application database and question (scope and groups chosen): only large ones (the every-group
 * chart; a few groups' is quicker to write than to check), at most KEPT_GRAPHS of them (at xl 10 MB each), the
 * least recently used dropped first. Only in this server's memory, as the kept answers are.
 */
const KEPT_GRAPHS = 8;
const KEEP_GRAPH_FROM = 32 * 1024;
/**
 * A kept chart: its rows' digest, its groups' names and order, each group's months and counts as read, and its
 * pieces, one per year in order.
 */
interface KeptGraph {
  digest: string;
  names: string;
  layout: Layout;
  groups: Map<string, { days: string; counts: string }>;
  years: { year: number; piece: Piece }[];
}
const keptGraphs = new WeakMap<Db, Map<string, KeptGraph>>();

/**
 * output[1], open merchants per state, as JSON text: the states of the map's rows with their centres (a state
 * without one is left off).
 */
function statesJson(map: string | null): string {
  const perState = JSON.parse(map ?? '[]') as [string, number][];
  const states: IsoAnalyticsAnswer['output'][1] = perState.flatMap(([state, cnt]) => {
    const centre = STATE_CENTERS[state];
    return centre ? [{ state, state_lat: centre[0], state_lng: centre[1], cnt }] : [];
  });
  return JSON.stringify(states);
}

/**
 * The map kept between answers, as the chart is: it is read from `bi_group_states` alone, whose own version
 * (`bi_map`, raised by every statement that writes it: migration 2026_12_16_0010) and the day (who is open today)
 * are read in the request's transaction with its first statement. A kept map for the same question, scope and
 * chosen group IDs at that version and day is the map of this snapshot; most changes that raise the answer's
 * version (an income import, a partner's or a group's details) leave it so. `kept` is the map's text when it
 * holds, else `keep` keeps the map just worked out.
 */
function keptMap(
  chosen: Awaited<ReturnType<typeof chosenGroups>> | 'every group',
  version: string,
  kept?: { database: Db; key: string },
): { kept?: string; keep: (text: string) => string } {
  if (!kept || version === '') return { keep: (text) => text };
  const memo = cacheFor(keptMaps, kept.database);
  // Every group's map reads every row its scope sees; a few groups' map, those groups' rows.
  const ids =
    chosen === 'every group'
      ? chosen
      : createHash('sha256')
          .update(
            chosen.groups
              .map((g) => g.group_id)
              .sort()
              .join(','),
          )
          .digest('base64');
  const held = memo.get(kept.key);
  if (held && held.version === version && held.ids === ids) {
    keepRecent(memo, kept.key, held, KEPT_MAPS);
    return { kept: held.text, keep: (text) => text };
  }
  return {
    keep: (text) => {
      keepRecent(memo, kept.key, { version, ids, text }, KEPT_MAPS);
      return text;
    },
  };
}

/** Keeps `value` under `key` as the most recently used, the least recently used dropped beyond `most`. */
function keepRecent<V>(memo: Map<string, V>, key: string, value: V, most: number) {
  memo.delete(key);
  memo.set(key, value);
  for (const old of memo.keys()) {
    if (memo.size <= most) break;
    memo.delete(old);
  }
}

/** Maps kept per application database and question, at most KEPT_MAPS (each a few kilobytes: 51 states). */
const KEPT_MAPS = 64;
const keptMaps = new WeakMap<Db, Map<string, { version: string; ids: string; text: string }>>();

/** One group's months (days from 2000-01-01) and their counts, each an array's text: '{5965,5996}', '{3,1}'. */
interface GraphRow {
  group_id: string;
  days: string;
  counts: string;
}

/** 2000-01-01 in milliseconds from 1970. */
const DAY_ZERO = Date.UTC(2000, 0, 1);

/** A day's month from year 0 and its date as 'YYYY-MM-DD' (ASCII bytes), by its number from 2000-01-01. */
function dayOf(cache: Map<number, { month: number; text: Buffer }>, day: number) {
  let d = cache.get(day);
  if (!d) {
    const date = new Date(DAY_ZERO + day * 86_400_000);
    d = {
      month: date.getUTCFullYear() * 12 + date.getUTCMonth(),
      text: Buffer.from(date.toISOString().slice(0, 10), 'latin1'),
    };
    cache.set(day, d);
  }
  return d;
}

/** The chosen groups in the chart's order: each group's place among the names sorted, and each name's row start. */
interface Layout {
  names: number;
  placeOf: Map<string, number>;
  prefix: Buffer[];
}

function layoutOf(groups: readonly ChosenGroup[]): Layout {
  const names = [...new Set(groups.map((g) => g.group_name))].sort(collator.compare);
  const placeOfName = new Map(names.map((n, i) => [n, i]));
  return {
    names: names.length,
    placeOf: new Map(groups.map((g) => [g.group_id, placeOfName.get(g.group_name) as number])),
    prefix: names.map((n) => Buffer.from(`{"GroupLevel1Name":${JSON.stringify(n)},"OpenDate":"`)),
  };
}

/**
 * The graph's JSON as UTF-8 bytes, from the groups' rows (approvalsGraph), by year of approval (`all`: every year the
 * rows hold, in order): each year's rows after an opening bracket (the first year) or a comma, the last year's
 * followed by the closing bracket; put together in order they are the chart. Only the years in `only` are written
 * when it is given. Each row is put in order by one number (its month from year 0, then its name's place, then the
 * row's own place: exact in a float64 up to 2^53). Rows of two groups that share a name (the same month and place)
 * come out next to each other and are written as one, their counts added up.
 */
function graphBytes(
  layout: Layout,
  rows: readonly GraphRow[],
  only?: ReadonlySet<number>,
): { all: number[]; years: { year: number; bytes: Buffer }[] } {
  const { placeOf, prefix } = layout;
  const middle = Buffer.from('","ApprovalCount":');
  // Each array's elements are separated by commas: a group's rows are its commas plus one.
  let total = 0;
  for (const r of rows) {
    for (let i = 0; i < r.days.length; i++) if (r.days.charCodeAt(i) === 44) total++;
    total++;
  }
  const places = 2 ** Math.ceil(Math.log2(total + 1));
  const ranks = 2 ** Math.ceil(Math.log2(layout.names + 1));
  const ranked = new Int32Array(total);
  const counts = new Float64Array(total);
  const days = new Int32Array(total);
  const keys = new Float64Array(total);
  const cache = new Map<number, { month: number; text: Buffer }>();
  const present = new Set<number>();
  let n = 0;
  for (const r of rows) {
    const k = placeOf.get(r.group_id);
    // A group that gained its first merchant after the list was read has no name here: the next answer has it.
    if (k === undefined) continue;
    // Both lists are read together, past their braces: a number ends at a comma or the closing brace.
    let i = 1;
    let j = 1;
    let noted = Number.NaN;
    while (i < r.days.length) {
      let day = 0;
      let sign = 1;
      if (r.days.charCodeAt(i) === 45) {
        sign = -1;
        i++;
      }
      for (let c = r.days.charCodeAt(i); c >= 48 && c <= 57; c = r.days.charCodeAt(++i))
        day = day * 10 + c - 48;
      i++;
      let count = 0;
      for (let c = r.counts.charCodeAt(j); c >= 48 && c <= 57; c = r.counts.charCodeAt(++j))
        count = count * 10 + c - 48;
      j++;
      const month = dayOf(cache, sign * day).month;
      const year = Math.floor(month / 12);
      // A group's months come in order: a year is noted once per group.
      if (year !== noted) {
        present.add(year);
        noted = year;
      }
      if (only && !only.has(year)) continue;
      ranked[n] = k;
      counts[n] = count;
      days[n] = sign * day;
      keys[n] = (month * ranks + k) * places + n;
      n++;
    }
  }
  const all = [...present].sort((a, b) => a - b);
  const first = all[0];
  const last = all.at(-1);
  // Each row's bytes are at most its name's start, the date, the middle, 16 digits, the brace and a comma; each
  // year's, a bracket more.
  let bound = 2 * all.length;
  for (let i = 0; i < n; i++)
    bound += (prefix[ranked[i] as number] as Buffer).length + 10 + middle.length + 18;
  const out = Buffer.allocUnsafe(bound);
  let at = 0;
  const years: { year: number; bytes: Buffer }[] = [];
  // The year being written, where it starts, and whether it has a row yet.
  let year = Number.NaN;
  let from = 0;
  let started = false;
  const endYear = () => {
    if (year === last) out[at++] = 93; // ]
    // Its own bytes (the buffer is sized for the longest counts), kept with a kept chart.
    years.push({ year, bytes: Buffer.from(out.subarray(from, at)) });
  };
  // The row being written, its month and name's place (its key without the row's own place), and its count.
  let row = -1;
  let rowKey = -1;
  let count = 0;
  const write = () => {
    const rowYear = Math.floor(rowKey / ranks / 12);
    if (rowYear !== year) {
      if (!Number.isNaN(year)) endYear();
      year = rowYear;
      from = at;
      out[at++] = year === first ? 91 : 44; // [ or ,
      started = false;
    }
    if (started) out[at++] = 44; // ,
    started = true;
    const start = prefix[ranked[row] as number] as Buffer;
    out.set(start, at);
    at += start.length;
    const date = dayOf(cache, days[row] as number).text;
    out.set(date, at);
    at += date.length;
    out.set(middle, at);
    at += middle.length;
    // The count's digits, written from the last.
    let digits = 1;
    for (let c = count; c >= 10; c = Math.floor(c / 10)) digits++;
    for (let c = count, d = at + digits - 1; d >= at; c = Math.floor(c / 10), d--) out[d] = 48 + (c % 10);
    at += digits;
    out[at++] = 125; // }
  };
  for (const key of keys.subarray(0, n).sort()) {
    const i = key % places;
    const monthAndPlace = Math.floor(key / places);
    if (monthAndPlace === rowKey) {
      count += counts[i] as number;
      continue;
    }
    if (row >= 0) write();
    row = i;
    rowKey = monthAndPlace;
    count = counts[i] as number;
  }
  if (row >= 0) write();
  if (!Number.isNaN(year)) endYear();
  return { all, years };
}

const collator = new Intl.Collator('en-US');

/**
 * output[0] approvals per group and month, output[1] open merchants per state, output[2] the stats rows; as the
 * JSON text to send (see the end).
 */
export async function analyticsData(
  db: Db,
  input: { groups: string[]; start: string; end: string },
  kept?: { database: Db; key: string },
): Promise<PiecedText> {
  // The statements are sent together, each as soon as what it needs is known. The connection takes them one after
  // the other, the next one sent as the last one's rows arrive: the stats and the map (one statement) are sent
  // right after the graph's rows, and the database works them out while this thread writes the graph's text.
  const [chosen, { rows: latest }] = await Promise.all([
    chosenGroups(db, input.groups),
    // Each deal's income through the last month chosen: its whole history (deal_income) when no income is
    // recorded after that month, as for the usual window that runs to the current month; else its income rows.
    // With the version of the map's rollup and the day (keptMap).
    sql<{ month: string | null; map_version: string }>`
      select max(month)::text as month,
             (select version::text from answer_versions where name = 'bi_map') || ':' || current_date::text
               as map_version
      from merchant_income`.execute(db),
  ]);
  const graph = approvalsGraph(db, chosen, kept);
  const map = keptMap(input.groups.length === 0 ? 'every group' : chosen, latest[0]?.map_version ?? '', kept);

  // The stats' groups with their ISOs, and the ISOs concerned: a group's row carries its ISO's house profit,
  // earned by every group of the ISO.
  const sel = sql`sel as (
    select g.group_id, g.group_name, g.partner_id, p.account_name as iso
    from groups g join partners p on p.id = g.partner_id
    where ${input.groups.length === 0 ? sql`exists (select 1 from bi_group_totals t where t.group_id = g.group_id)` : chosen.of('g')})`;
  const ofIsos = (alias: string) =>
    input.groups.length === 0
      ? sql`true`
      : sql`${sql.ref(`${alias}.partner_id`)} in (select partner_id from sel)`;

  // The group rollup holds each deal's whole-history income, so it answers the usual window; an earlier end
  // sums the deals' income rows up to it. A group whose deals' months all fall within the months chosen (the usual
  // question: from May 2016 to now) is read from its totals, the others summed from their months.
  const within = sql`(t.first_month >= ${input.start}::date and t.last_month <= ${input.end}::date)`;
  const sums =
    latest[0]?.month == null || latest[0].month <= input.end
      ? sql`
    per_group as (
      select t.group_id, t.partner_id, t.approved::int as approved,
             (t.approved - ${closedToday('t')})::int as open, t.first, t.last, t.net, t.payouts,
             case when coalesce(t.last_closing <= current_date, true) then t.stats_fields end as fields
      from bi_group_totals t
      where ${ofIsos('t')} and ${within}
      union all
      select d.group_id, min(d.partner_id) as partner_id, sum(d.approved)::int as approved,
             sum(d.approved - ${closedToday('d')})::int as open, min(d.first) as first,
             max(d.last) as last, sum(d.net) as net, sum(d.payouts) as payouts, null::text as fields
      from bi_group_totals t join bi_group_deals d on d.group_id = t.group_id
      where ${ofIsos('t')} and not ${within} and d.month >= ${input.start}::date and d.month <= ${input.end}::date
      group by d.group_id
    ),
    per_iso as (select pg.partner_id, sum(pg.net - pg.payouts) as house from per_group pg group by pg.partner_id)`
      : sql`
    deals as (
      select m.id, m.group_id, m.partner_id, m.approved_on, ${OPEN_TODAY} as open
      from merchants m
      where m.partner_id in (select partner_id from sel)
        and m.approved_on >= ${input.start}::date
        and m.approved_on < (${input.end}::date + interval '1 month')
    ),
    earned as (
      select i.merchant_id, sum(i.net) as net, sum(i.payouts) as payouts
      from merchant_income i
      where i.merchant_id in (select id from deals) and i.month <= ${input.end}::date
      group by i.merchant_id
    ),
    per_group as (
      select d.group_id, count(*)::int as approved, count(*) filter (where d.open)::int as open,
             min(d.approved_on) as first, max(d.approved_on) as last,
             coalesce(sum(e.net), 0) as net, coalesce(sum(e.payouts), 0) as payouts, null::text as fields
      from deals d left join earned e on e.merchant_id = d.id
      group by d.group_id
    ),
    per_iso as (
      select d.partner_id, coalesce(sum(e.net - e.payouts), 0) as house
      from deals d left join earned e on e.merchant_id = d.id
      group by d.partner_id
    )`;
  // The stats and the map in one statement, with each row's JSON written by the database: sent as the graph's rows
  // arrive, it is worked out while this thread writes the graph's text (a second statement would only be sent once
  // that is done, when the first one's answer is read).
  const statsAndMap = sql<{ stats: string | null; map: string | null }>`
    with ${sel}, ${sums},
    rows as (
      select s.group_name, s.iso, s.partner_id, coalesce(sum(pg.approved), 0)::int as approved,
             coalesce(sum(pg.open), 0)::int as open, min(pg.first) as first, max(pg.last) as last,
             coalesce(sum(pg.net), 0) as net, coalesce(sum(pg.payouts), 0) as payouts,
             case when count(pg.group_id) = 1 then min(pg.fields) end as fields
      from sel s left join per_group pg on pg.group_id = s.group_id
      group by s.group_name, s.iso, s.partner_id
    ),
    -- A row's fields of its deals: kept with a group's totals when the row is that one group's whole history with
    -- every closing past (migration 2026_12_17_0010), else written here by the same function. Keys in the order
    -- the answer has always had.
    stats as (
      select r.group_name as groupname, r.approved,
             '{"groupname":' || coalesce(to_json(r.group_name)::text, 'null')
               || ',"iso":' || coalesce(to_json(r.iso)::text, 'null') || ','
               || coalesce(r.fields, paydesk_bi_stats_fields(r.approved, r.open, r.first, r.last, r.net, r.payouts))
               || ',"HouseProfitPerISO":' || to_json(round(coalesce(pi.house, 0), 2)::text)::text || '}' as j
      from rows r left join per_iso pi on pi.partner_id = r.partner_id
    ),
    -- From the group rollups (db/derived.ts): merchants per state.
    map as (
      select st.state, sum(st.merchants - ${closedToday('st')})::int as cnt
      from bi_group_states st where ${chosen.of('st')}
      group by st.state having sum(st.merchants - ${closedToday('st')}) > 0
    )
    select (select string_agg(x.j, ',' order by x.approved desc, x.groupname) from stats x)
             as stats,
           ${
             // A map kept for this snapshot: the CTE is not referenced, so not worked out.
             map.kept === undefined
               ? sql`(select json_agg(json_build_array(m.state, m.cnt) order by m.state)::text from map m)`
               : sql`null`
           } as map`.execute(db);

  // A failed statement fails the others of the transaction: each is awaited here, so none goes unhandled.
  const [graphPieces, { rows }] = await Promise.all([graph, statsAndMap]);
  const { stats } = rows[0] ?? { stats: null };

  // Every row is built here or selected with a fixed column list, so the answer is written once, without
  // checking tens of thousands of graph rows against the schema (JsonText in platform/http.ts; bi.test.ts
  // parses the answers with it).
  const states = map.kept ?? map.keep(statesJson(rows[0]?.map ?? null));
  // The answer in pieces, the chart's (a piece per year) kept with their deflate data (approvalsGraph): a client that
  // accepts gzip gets bytes put together from them, each of the chart's compressed once for as long as it is kept.
  const pieces = [lazyPiece('{"output":['), ...graphPieces, lazyPiece(`,${states},[${stats ?? ''}]]}`)];
  return { pieces };
}

/**
 * Every ISO with merchants: its group IDs, deals, deal ages and bank and profile shares, as the answer's JSON text.
 * Each ISO's figures come from bi_iso_info (db/derived.ts) when every row the caller can see is of today, with
 * their JSON kept beside them (`answer`, migration 2026_12_06_0020), which is joined here to the ISO's name and
 * group IDs; otherwise (the day has turned and the daily rebuild has not run yet, or the table was never filled)
 * they are counted from the merchants and written as JSON here.
 */
export async function allInformationJson(db: Db): Promise<string> {
  const { rows: kept } = await sql<{ today: boolean }>`
    select coalesce(min(as_of) = current_date, false) as today from bi_iso_info`.execute(db);
  // The ISO's group IDs in order, from the index on (partner_id, group_id): an ordered subquery feeds the
  // aggregate in its order (PostgreSQL documents this), and no ISO's IDs are sorted on their own.
  const ids = sql`
    select partner_id, string_agg(group_id, ',') as group_id
    from (select partner_id, group_id from groups order by partner_id, group_id) g group by partner_id`;
  if (kept[0]?.today) {
    const { rows } = await sql<{ iso_name: string; group_id: string | null; answer: string }>`
      with ids as (${ids})
      select p.account_name as iso_name, ids.group_id, i.answer
      from bi_iso_info i join partners p on p.id = i.partner_id left join ids on ids.partner_id = i.partner_id
      where trim(p.account_name) <> ''
      order by p.account_name`.execute(db);
    const parts = rows.map(
      (r) =>
        `{"iso_name":${JSON.stringify(r.iso_name)},"group_id":${JSON.stringify(r.group_id ?? '')},${r.answer}`,
    );
    return `[${parts.join(',')}]`;
  }
  const { rows } = await sql<IsoInfoRow>`
    with ids as (${ids}),
    per_iso as (${isoInfoSums()})
    select p.account_name as iso_name, coalesce(ids.group_id, '') as group_id, i.approved_deals,
           i.first::text as first_deal, i.last::text as last_deal,
           case when i.approved_deals > 1
             then round((i.last - i.first)::numeric / (i.approved_deals - 1), 1)::text end as average_days_bw_deals,
           i.open_deals, i.closed_deals, i.open_longest, i.open_shortest, i.closed_longest, i.closed_shortest,
           i.open_age_set, i.closed_age_set, i.cbcal, i.esquire, i.chesapeake, i.pl_count, i.tr_count, i.hr_count,
           i.ns_count
    from per_iso i join partners p on p.id = i.partner_id left join ids on ids.partner_id = i.partner_id
    where trim(p.account_name) <> ''
    order by p.account_name`.execute(db);
  return JSON.stringify(rows);
}

/** Refuses group IDs the caller cannot see and an MCC that does not exist. */
async function checkChoice(db: Db, groupIDs: readonly string[], mcc = 'All') {
  const { rows } = await sql<{ group_id: string }>`
    select distinct group_id from groups where group_id in (${sql.join(groupIDs)})`.execute(db);
  const known = new Set(rows.map((r) => r.group_id));
  const missing = groupIDs.find((g) => !known.has(g));
  if (missing !== undefined) throw badRequest(`Unknown group ID: ${missing}`);
  if (mcc !== 'All') {
    const { rows: codes } = await sql`select 1 from mcc_codes where code = ${mcc}`.execute(db);
    if (codes.length === 0) throw badRequest(`Unknown MCC: ${mcc}`);
  }
}

const merchantsOf = (groupIDs: readonly string[], mcc: string) =>
  sql`select m.id, m.profile, m.approved_on, m.closed_on from merchants m
      where m.group_id in (${sql.join(groupIDs)}) ${mcc === 'All' ? sql`` : sql`and m.mcc = ${mcc}`}`;

/** Volume, transactions, chargebacks and refunds of the groups' merchants per day or month of the window. */
export async function transactions(
  db: Db,
  input: { groupIDs: string[]; date: string; end: string; monthly: boolean; mcc: string },
): Promise<TransactionRow[]> {
  await checkChoice(db, input.groupIDs, input.mcc);
  const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
  const [table, column, step, first, last] = input.monthly
    ? [
        sql`${sql.table(input.mcc === 'All' ? 'bi_group_monthly' : 'merchant_monthly')}`,
        sql`month`,
        sql`interval '1 month'`,
        sql`${monthOf(input.date)}::date`,
        sql`${monthOf(input.end)}::date`,
      ]
    : [
        sql`${sql.table(input.mcc === 'All' ? 'bi_group_daily' : 'merchant_daily')}`,
        sql`day`,
        sql`interval '1 day'`,
        sql`${input.date}::date`,
        sql`${input.end}::date`,
      ];
  const periodEnd = input.monthly ? sql`(p.p + interval '1 month' - interval '1 day')::date` : sql`p.p`;
  // A merchant has one row per day or month, so counting rows counts merchants.
  const perProfile = BI_PROFILES.flatMap(([key, test]) => [
    sql`count(*) filter (where a.transactions > 0 and a.profile ${test})::int as ${sql.ref(`${key}_mid_count`)}`,
    sql`coalesce(sum(a.transactions) filter (where a.profile ${test}), 0)::int as ${sql.ref(`${key}_txn_count`)}`,
    sql`coalesce(sum(a.chargebacks) filter (where a.profile ${test}), 0)::int as ${sql.ref(`${key}_chbk_count`)}`,
    sql`coalesce(sum(a.refunds) filter (where a.profile ${test}), 0)::int as ${sql.ref(`${key}_ref_count`)}`,
  ]);
  const keys = BI_PROFILES.flatMap(([key]) =>
    ['mid', 'txn', 'chbk', 'ref'].map(
      (what) => sql`coalesce(g.${sql.ref(`${key}_${what}_count`)}, 0) as ${sql.ref(`${key}_${what}_count`)}`,
    ),
  );
  // Every MCC: the groups' rollup rows (db/derived.ts), which hold these sums per group; else the merchants'.
  const rollupSums = BI_PROFILES.flatMap(([key]) =>
    [
      ['mid', 'active'],
      ['txn', 'transactions'],
      ['chbk', 'chargebacks'],
      ['ref', 'refunds'],
    ].map(
      ([what, column]) =>
        sql`sum(a.${sql.ref(`${key}_${column}`)})::int as ${sql.ref(`${key}_${what}_count`)}`,
    ),
  );
  const grouped =
    input.mcc === 'All'
      ? sql`
    g as (
      select a.${column} as period, sum(a.volume)::float8 as txn_volume, sum(a.transactions)::int as txn_count,
             sum(a.chargeback_volume)::float8 as chbk_volume, sum(a.chargebacks)::int as chbk_count,
             sum(a.refund_volume)::float8 as ref_volume, sum(a.refunds)::int as ref_count,
             sum(a.active)::int as active_count, ${sql.join(rollupSums)}
      from ${table} a
      where a.group_id in (${sql.join(input.groupIDs)}) and a.${column} >= ${first} and a.${column} <= ${last}
      group by a.${column}
    ),
    -- Open merchants at each period's end: those open before the window (one sum), plus the running sum of the
    -- groups' openings less closings in the window up to it, the period ends sorted in after the day's events.
    -- (The running sum over the groups' whole history sorted ten thousand days for the largest ISO.)
    before as (
      select coalesce(sum(o.opened - o.closed), 0) as n from bi_group_openings o
      where o.group_id in (${sql.join(input.groupIDs)}) and o.day < (select min(p) from periods)
    ),
    mids as (
      select x.day as pe, x.mark,
             (before.n + sum(x.d) over (order by x.day, x.mark rows between unbounded preceding and current row))::int
               as n
      from (
        select o.day, o.opened - o.closed as d, false as mark from bi_group_openings o
        where o.group_id in (${sql.join(input.groupIDs)}) and o.day >= (select min(p) from periods)
          and o.day <= (select max(pe) from periods)
        union all select pe, 0, true from periods
      ) x cross join before
    )`
      : sql`
    sel as materialized (${merchantsOf(input.groupIDs, input.mcc)}),
    mids as (
      select p.pe, true as mark, (select count(*) from sel m where m.approved_on <= p.pe
              and (m.closed_on is null or m.closed_on > p.pe))::int as n
      from periods p
    ),
    a as (
      select a.${column} as period, a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume,
             a.refunds, m.profile
      from sel m join ${table} a on a.merchant_id = m.id and a.${column} >= ${first} and a.${column} <= ${last}
    ),
    g as (
      select a.period, sum(a.volume)::float8 as txn_volume, sum(a.transactions)::int as txn_count,
             sum(a.chargeback_volume)::float8 as chbk_volume, sum(a.chargebacks)::int as chbk_count,
             sum(a.refund_volume)::float8 as ref_volume, sum(a.refunds)::int as ref_count,
             count(*) filter (where a.transactions > 0)::int as active_count,
             ${sql.join(perProfile)}
      from a group by a.period
    )`;
  const { rows } = await sql<TransactionRow>`
    with periods as materialized (
      select p.p, ${periodEnd} as pe from (select p::date as p from generate_series(${first}, ${last}, ${step}) p) p
    ),
    ${grouped}
    select p.p::text as txn_date, coalesce(g.txn_volume, 0) as txn_volume, coalesce(g.txn_count, 0) as txn_count,
           coalesce(g.chbk_volume, 0) as chbk_volume, coalesce(g.chbk_count, 0) as chbk_count,
           coalesce(g.ref_volume, 0) as ref_volume, coalesce(g.ref_count, 0) as ref_count,
           coalesce(mc.n, 0) as mid_count, coalesce(g.active_count, 0) as active_count, ${sql.join(keys)}
    from periods p
    left join g on g.period = p.p
    left join mids mc on mc.mark and mc.pe = p.pe
    order by p.p`.execute(db);
  return rows;
}

/** Gross and net income, expenses and payouts of the groups' merchants per month of the window. */
export async function income(
  db: Db,
  input: { groupIDs: string[]; date: string; end: string; mcc: string },
): Promise<IncomeRow[]> {
  await checkChoice(db, input.groupIDs, input.mcc);
  const first = `${input.date.slice(0, 7)}-01`;
  const last = `${input.end.slice(0, 7)}-01`;
  // Every MCC: the groups' income rollup (db/derived.ts); else the merchants' income rows.
  const grouped =
    input.mcc === 'All'
      ? sql`
    g as (
      select i.month, sum(i.gross)::float8 as gross_income, sum(i.net)::float8 as net_income,
             sum(i.expenses)::float8 as expenses, sum(i.payouts)::float8 as payouts, sum(i.merchants)::int as mid_count
      from bi_group_income i
      where i.group_id in (${sql.join(input.groupIDs)}) and i.month >= ${first}::date and i.month <= ${last}::date
      group by i.month
    )`
      : sql`
    sel as (${merchantsOf(input.groupIDs, input.mcc)}),
    g as (
      select i.month, sum(i.gross)::float8 as gross_income, sum(i.net)::float8 as net_income,
             sum(i.expenses)::float8 as expenses, sum(i.payouts)::float8 as payouts, count(*)::int as mid_count
      from sel m join merchant_income i on i.merchant_id = m.id and i.month >= ${first}::date and i.month <= ${last}::date
      group by i.month
    )`;
  const { rows } = await sql<IncomeRow>`
    with ${grouped}
    select p::date::text as income_date, coalesce(g.gross_income, 0) as gross_income,
           coalesce(g.net_income, 0) as net_income, coalesce(g.expenses, 0) as expenses,
           coalesce(g.payouts, 0) as payouts, coalesce(g.mid_count, 0) as mid_count
    from generate_series(${first}::date, ${last}::date, interval '1 month') p
    left join g on g.month = p::date
    order by p`.execute(db);
  return rows;
}

/** The groups' merchants (open or closed) per MCC, most first. */
export async function mccCounts(db: Db, groupIDs: string[]): Promise<MccRow[]> {
  await checkChoice(db, groupIDs);
  // Counted per code from the group index alone (it carries the code: 2026_11_28_0040), then each code's
  // description: the largest ISO's 13,000 merchants were read row by row and joined before being counted.
  const { rows } = await sql<MccRow>`
    select g.mcc as mcc_code, coalesce(c.description, '') as mcc_desc, g.n::int as mcc_count
    from (select m.mcc, count(*) as n from merchants m where m.group_id in (${sql.join(groupIDs)}) group by m.mcc) g
    left join mcc_codes c on c.code = g.mcc
    order by 3 desc, 1`.execute(db);
  return rows;
}
