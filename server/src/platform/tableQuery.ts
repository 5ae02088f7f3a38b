import {
  type ColumnDef,
  type FilterState,
  rangeLimits,
  type SortState,
  type TableDef,
  type TablePage,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/connect';
import { type AnswerName, keptSmall } from './answerCache';
import { badRequest } from './errors';
import { type HeldCursor, holdCursor } from './heldCursor';

/**
 * The server half of the table toolkit. A table is its column definitions (shared with the web app) plus,
 * per column, a trusted SQL expression written here in the code. Requests name columns only by id: an id
 * that is not in the whitelist, or a filter that does not fit the column, is refused with 400, and every
 * value travels as a parameter.
 */
export interface TableSource<Id extends string> {
  def: TableDef<Id>;
  /** SQL expression of each column, e.g. 'm.dba'. Code only, never input. */
  expressions: Record<Id, string>;
  /** The FROM clause with its joins; a RawBuilder when it needs parameters (a subquery). */
  from: string | RawBuilder<unknown>;
  /** Columns the search box matches by prefix. */
  searchable: readonly Id[];
  /** Unique expression that makes every order total, so pages never overlap. */
  tiebreak: string;
  /**
   * Columns whose shown value is made in code from what their expression selects (a readable sentence
   * from a code and its details), for pages and exports alike.
   */
  present?: Partial<Record<Id, (value: unknown) => unknown>>;
  /**
   * For a large table that keeps its whole-table count and totals ready: a query that answers them (`n` and
   * each `total` column as decimal text), used when a request has no filter, search or fixed condition.
   */
  unfiltered?: RawBuilder<Record<string, string> & { n: number }>;
  /**
   * A join that only some columns read (e.g. a figure kept once per group of rows, as ACH keeps the legal name's
   * balance). It is left out of a request's count, filtering and ordering unless the request filters, searches
   * or sorts by one of those `columns`; the page then joins it for its own rows only, found again by `key`
   * (a unique expression of the base table). An inner join: every row must have its joined row.
   */
  lookup?: {
    join: string;
    columns: readonly Id[];
    key: string;
    /**
     * The same join as a test of one base row: `exists (select 1 from <from> where <on> and <the filters>)`. With
     * it, a page filtered by lookup columns, but neither searched nor sorted by them, is found in the base table
     * alone: PostgreSQL walks the order's index and tests each row against the lookup rows that pass the filters,
     * hashed once when they fit in memory and probed by index when they do not. A join would probe the lookup
     * for every row walked (ACH's balance filter on page 20 walks 4,000 returns to find 2,000). The test is kept
     * out of the planner's semi-join (`is true`), which would plan that join.
     */
    exists?: { from: string; on: string };
  };
  /**
   * Smaller tables that keep, per group of rows (e.g. per legal name, per ISO), the group's row count and money
   * totals beside columns that are the same for every row of the group. A request whose every filter is on a
   * column of one of them (and has no search or fixed condition) takes its count and totals from it: one row per
   * group instead of every matching row. The first that fits is used.
   */
  rollups?: readonly TableRollup<Id>[];
  /**
   * The tiebreak is indexed beside the base conditions and the sortable columns (e.g. a month's rows with each
   * sort column and the merchant): a page past the first is found by its tiebreak keys first, which an index
   * walks over the skipped rows without reading them, and then only the page's own rows are read. Without it an
   * offset reads every row it skips (page 200 of 25 reads 5,000 rows for 25).
   */
  keyedPages?: true;
  /**
   * Each searchable column has a prefix index (`lower(column) text_pattern_ops`) that includes the tiebreak's key
   * (a unique column, `tiebreak` being that column, ascending or `desc`), the money totals and the columns a
   * searched page is usually sorted by. A searched request is then asked as one index scan per searchable column,
   * their rows put together by the key (each row once), instead of one condition `a or b or c`: PostgreSQL finds
   * the rows of such a condition through the same indexes but reads each from the table and tests every prefix
   * again. The rows are found once, in one statement that takes the page, the count and the totals from them
   * (searchedPage); the indexes alone answer them when they hold the sort columns, and only the page's own rows
   * are read (areas/ach/table.ts; migration 2026_12_08_0010_ach_search_cover). Not used when the request filters,
   * searches or sorts by a lookup column.
   */
  searchIndexed?: true;
}

export interface TableRollup<Id extends string> {
  from: string;
  /**
   * The request's base conditions (a route's fixed condition, e.g. the month) apply to this table as they are
   * written: it has the base table's alias and the columns they read. Without it a rollup serves only requests
   * with no base condition.
   */
  base?: true;
  /** The expression, in this table, of each column a filter may name; the same value as the rows'. */
  expressions: Partial<Record<Id, string>>;
  /** The expression of the group's row count, and of each total column's sum. */
  count: string;
  totals: Partial<Record<Id, string>>;
}

export interface TableRequest {
  filters: readonly FilterState[];
  sort: readonly SortState[];
  search: string;
}

const like = (value: string) => `${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function column<Id extends string>(source: TableSource<Id>, id: string, what: string): ColumnDef<Id> {
  const col = source.def.columns.find((c) => c.id === id);
  if (!col) throw badRequest(`Unknown column "${id}" in ${what}`);
  return col;
}

function expr<Id extends string>(source: TableSource<Id>, id: Id): RawBuilder<unknown> {
  return sql.raw(source.expressions[id]);
}

/** The WHERE conditions of a request, after checking every column and filter against the whitelist. */
export function conditions<Id extends string>(
  source: TableSource<Id>,
  request: TableRequest,
  base: RawBuilder<unknown>[] = [],
): RawBuilder<unknown>[] {
  const out = [...base];
  for (const f of request.filters) {
    const col = column(source, f.id, 'filters');
    if (col.filter !== f.kind) {
      throw badRequest(
        `Column "${f.id}" cannot be filtered ${f.kind === 'text' ? 'by text' : `as ${f.kind}`}`,
      );
    }
    const e = expr(source, col.id);
    switch (f.kind) {
      case 'text':
        if (f.value.trim() !== '') out.push(sql`lower(${e}::text) like ${like(f.value.trim())}`);
        break;
      case 'range': {
        const limits = rangeLimits(col);
        for (const bound of [f.min, f.max]) {
          if (bound === null) continue;
          if (bound < limits.min) {
            throw badRequest(
              limits.min === 0
                ? `${col.label} is a count: filter it with whole numbers of 0 or more`
                : `${col.label} takes whole numbers of ${limits.min.toLocaleString('en-US')} or more`,
            );
          }
          if (bound > limits.max) {
            throw badRequest(`${col.label} takes whole numbers up to ${limits.max.toLocaleString('en-US')}`);
          }
        }
        if (f.min !== null) out.push(sql`${e} >= ${f.min}`);
        if (f.max !== null) out.push(sql`${e} <= ${f.max}`);
        break;
      }
      case 'dateRange':
        if (f.from !== null) out.push(sql`${e} >= ${f.from}::date`);
        // The end date counts to the end of its day.
        if (f.to !== null) out.push(sql`${e} < ${f.to}::date + 1`);
        break;
      case 'select': {
        if (f.values.length === 0) break;
        const unknown = col.options ? f.values.filter((v) => !col.options?.includes(v)) : [];
        if (unknown.length > 0) throw badRequest(`"${unknown[0]}" is not a value of column "${f.id}"`);
        out.push(sql`${e} in (${sql.join(f.values)})`);
        break;
      }
    }
  }
  const search = request.search.trim();
  if (search !== '' && source.searchable.length > 0) {
    const ors = source.searchable.map((id) => sql`lower(${expr(source, id)}::text) like ${like(search)}`);
    out.push(sql`(${sql.join(ors, sql` or `)})`);
  }
  return out;
}

/** The request's sort (the table's default when none), each column checked: its expression and direction. */
function sortKeys<Id extends string>(
  source: TableSource<Id>,
  sort: readonly SortState[],
): { e: RawBuilder<unknown>; dir: RawBuilder<unknown> }[] {
  const chosen = sort.length > 0 ? sort : source.def.defaultSort;
  return chosen.map((s) => {
    const col = column(source, s.id, 'sort');
    if (!col.sortable) throw badRequest(`Column "${s.id}" cannot be sorted`);
    return { e: expr(source, col.id), dir: sql.raw(s.desc ? 'desc nulls last' : 'asc nulls last') };
  });
}

export function orderBy<Id extends string>(
  source: TableSource<Id>,
  sort: readonly SortState[],
): RawBuilder<unknown> {
  return sql.join([...sortKeys(source, sort).map((k) => sql`${k.e} ${k.dir}`), sql.raw(source.tiebreak)]);
}

function selectList<Id extends string>(source: TableSource<Id>, ids: readonly Id[]): RawBuilder<unknown> {
  return sql.join(ids.map((id) => sql`${expr(source, id)} as ${sql.ref(id)}`));
}

/** Checks a request against the whitelist without running it (for answers that stream). */
export function checkRequest<Id extends string>(
  source: TableSource<Id>,
  request: TableRequest,
  columns: readonly string[],
) {
  conditions(source, request);
  orderBy(source, request.sort);
  for (const id of columns) column(source, id, 'columns');
}

const fromClause = (source: TableSource<string>) =>
  typeof source.from === 'string' ? sql.raw(source.from) : source.from;

const where = (conds: RawBuilder<unknown>[]) =>
  conds.length > 0 ? sql`where ${sql.join(conds, sql` and `)}` : sql``;

/** The FROM clause with the lookup join, for a query that reads a lookup column. */
const joinedFrom = (source: TableSource<string>) =>
  source.lookup ? sql`${fromClause(source)} ${sql.raw(source.lookup.join)}` : fromClause(source);

/** Whether the request's filters, search or order read a column of the source's lookup join. */
function readsLookup<Id extends string>(
  source: TableSource<Id>,
  request: TableRequest,
  order: boolean,
): boolean {
  const lookup = source.lookup;
  if (!lookup) return false;
  const isLookup = (id: string) => lookup.columns.some((c) => c === id);
  const searched = request.search.trim() !== '' && source.searchable.some(isLookup);
  const sorted = (request.sort.length > 0 ? request.sort : source.def.defaultSort).some((s) =>
    isLookup(s.id),
  );
  return request.filters.some((f) => isLookup(f.id)) || searched || (order && sorted);
}

/**
 * The conditions of a request that filters by lookup columns but neither searches nor sorts by them, with those
 * filters as one test of the base row (`lookup.exists`); undefined for any other request. `conds` are the
 * request's conditions as they are.
 */
function lookupTested<Id extends string>(
  source: TableSource<Id>,
  request: TableRequest,
  base: RawBuilder<unknown>[],
  conds: RawBuilder<unknown>[],
): RawBuilder<unknown>[] | undefined {
  const { lookup } = source;
  if (!lookup?.exists) return undefined;
  const isLookup = (f: FilterState) => lookup.columns.some((c) => c === f.id);
  const filters = request.filters.filter(isLookup);
  if (filters.length === 0 || readsLookup(source, { ...request, filters: [] }, true)) return undefined;
  const tests = conditions(source, { filters, sort: [], search: '' });
  // A filter that sets no bound (an empty text, no values) tests nothing.
  if (tests.length === 0) return conds;
  return [
    ...conditions(source, { ...request, filters: request.filters.filter((f) => !isLookup(f)) }, base),
    sql`(exists (select 1 from ${sql.raw(lookup.exists.from)} where ${sql.raw(lookup.exists.on)}
      and ${sql.join(tests, sql` and `)})) is true`,
  ];
}

/**
 * A searched request of a `searchIndexed` source as one set of conditions per searchable column (the request's
 * other conditions, and that column's prefix), with the key the branches' rows are put together by; undefined for
 * any other request.
 */
function searchBranches<Id extends string>(
  source: TableSource<Id>,
  request: TableRequest,
  base: RawBuilder<unknown>[],
): { key: string; desc: boolean; branches: RawBuilder<unknown>[][] } | undefined {
  const search = request.search.trim();
  if (!source.searchIndexed || search === '' || readsLookup(source, request, true)) return undefined;
  const tiebreak = /^([\w.]+)( desc)?$/.exec(source.tiebreak);
  if (!tiebreak?.[1])
    throw new Error(`searchIndexed needs a tiebreak of one column, not "${source.tiebreak}"`);
  const rest = conditions(source, { ...request, search: '' }, base);
  return {
    key: tiebreak[1],
    desc: tiebreak[2] !== undefined,
    branches: source.searchable.map((id) => [
      ...rest,
      sql`lower(${expr(source, id)}::text) like ${like(search)}`,
    ]),
  };
}

/** The columns a page sums into its totals. */
const totalColumns = <Id extends string>(source: TableSource<Id>): Id[] =>
  source.def.columns.filter((c) => c.total).map((c) => c.id);

/**
 * A searched page (searchBranches) in one statement: the matching rows are found once, as one index scan per
 * searchable column (`union all`, each row then kept once by its key) with their key, sort columns and total
 * columns, and the page, the count and the totals are all taken from them. Only the page's own rows are then
 * read. Asked as two statements, the page and the count each found and put together the same rows again.
 */
async function searchedPage<Id extends string, Row>(
  db: Db,
  source: TableSource<Id>,
  request: TableRequest & { page: number },
  searched: NonNullable<ReturnType<typeof searchBranches>>,
  ids: readonly Id[],
  pageSize: number,
  offset: number,
): Promise<TablePage<Row>> {
  const sorts = sortKeys(source, request.sort);
  const summed = totalColumns(source);
  const list = sql.join([
    sql`${sql.raw(searched.key)} as key`,
    ...sorts.map((k, i) => sql`${k.e} as ${sql.ref(`o${i}`)}`),
    ...summed.map((id, i) => sql`${expr(source, id)} as ${sql.ref(`t${i}`)}`),
  ]);
  const scans = sql.join(
    searched.branches.map((b) => sql`select ${list} from ${fromClause(source)} ${where(b)}`),
    sql` union all `,
  );
  const keyDir = sql.raw(searched.desc ? 'desc' : 'asc');
  // The page's order, by the columns each scan selected; the same order as the table's (orderBy).
  const pageOrder = (alias: string, prefix: string) =>
    sql.join([
      ...sorts.map((k, i) => sql`${sql.ref(`${alias}.${prefix}o${i}`)} ${k.dir}`),
      sql`${sql.ref(`${alias}.${prefix}key`)} ${keyDir}`,
    ]);
  // One row per page row, each with the count and totals ("__n", "__t0"…); one row with no page row (a key of
  // null) when the page is past the end.
  const { rows } = await sql<Record<string, unknown>>`with x as materialized (
        select distinct on (key) * from (${scans}) y),
      page as (select * from x order by ${pageOrder('x', '')} limit ${pageSize} offset ${offset})
    select ${sql.join([sql`agg.*`, sql`p.*`])}
    from (select ${sql.join([
      sql`count(*) as "__n"`,
      ...summed.map((_, i) => sql`coalesce(sum(x.${sql.ref(`t${i}`)}), 0)::text as ${sql.ref(`__t${i}`)}`),
    ])} from x) agg
    left join (select ${sql.join([
      selectList(source, ids),
      ...sorts.map((_, i) => sql`page.${sql.ref(`o${i}`)} as ${sql.ref(`__o${i}`)}`),
      sql`page.key as "__key"`,
    ])}
      from page join ${joinedFrom(source)} on ${sql.raw(searched.key)} = page.key) p on true
    order by ${pageOrder('p', '__')}`.execute(db);
  const first = rows[0] ?? {};
  const totals = Object.fromEntries(summed.map((id, i) => [id, String(first[`__t${i}`] ?? '0')]));
  const pageRows = rows
    .filter((r) => r.__key !== null)
    .map((r) => Object.fromEntries(ids.map((id) => [id, r[id]])) as Row);
  return {
    rows: present(source, pageRows),
    total: Number(first.__n ?? 0),
    page: request.page,
    pageSize,
    totals,
  };
}

/**
 * Where a table's count and totals are kept between requests (platform/answerCache.ts, keptSmall): paging and
 * sorting a filtered month ask the same count again, and a past month's rows rarely change. `answer` and `part` name
 * the versions its rows' triggers raise (e.g. `selfserve_counts` and the month shown); `scope` is the request's
 * (answerCache.ts, scopeKey); `database` the application's Db.
 */
export interface KeptCounts {
  database: Db;
  answer: AnswerName;
  part: string;
  scope: string;
}

/** A count statement's key: the scope, its text and its parameters (whatever built it, the same question). */
function countKey(scope: string, statement: RawBuilder<unknown>, db: Db): string {
  const compiled = statement.compile(db);
  return `${scope}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
}

/** One page of rows and the count of all matching rows (the count kept between requests with `keep`). */
export async function queryPage<Id extends string, Row>(
  db: Db,
  source: TableSource<Id>,
  request: TableRequest & { page: number; pageSize?: number | undefined },
  base: RawBuilder<unknown>[] = [],
  keep?: KeptCounts,
): Promise<TablePage<Row>> {
  const pageSize = request.pageSize ?? source.def.defaultPageSize;
  if (!source.def.pageSizes.includes(pageSize)) {
    throw badRequest(`Page size must be one of ${source.def.pageSizes.join(', ')}`);
  }
  const conds = conditions(source, request, base);
  const ids = source.def.columns.map((c) => c.id);
  const order = orderBy(source, request.sort);
  const offset = (request.page - 1) * pageSize;
  const searched = searchBranches(source, request, base);
  if (searched) return searchedPage(db, source, request, searched, ids, pageSize, offset);
  const { lookup } = source;
  // Without a lookup column in the filters or the order, the page is found in the base table alone (its indexes
  // cover the filter, the order and the count) and only its rows are joined.
  const tested = lookupTested(source, request, base, conds);
  const { rows } =
    lookup && (tested || !readsLookup(source, request, true))
      ? await sql<Row>`select ${selectList(source, ids)}
          from (select ${sql.raw(lookup.key)} as page_key from ${fromClause(source)} ${where(tested ?? conds)}
                order by ${order} limit ${pageSize} offset ${offset}) page
          join ${joinedFrom(source)} on ${sql.raw(lookup.key)} = page.page_key
          order by ${order}`.execute(db)
      : source.keyedPages && !lookup && offset > 0
        ? // The tiebreak is unique among the rows that match (it makes the order total), so the page's keys
          // with the same conditions find exactly the page's rows, in one statement (one snapshot).
          await sql<Row>`select ${selectList(source, ids)}
            from (select ${sql.raw(source.tiebreak)} as page_key from ${fromClause(source)} ${where(conds)}
                  order by ${order} limit ${pageSize} offset ${offset}) page
            join ${joinedFrom(source)} on ${sql.raw(source.tiebreak)} = page.page_key
            ${where(conds)}
            order by ${order}`.execute(db)
        : await sql<Row>`select ${selectList(source, ids)} from ${joinedFrom(source)} ${where(conds)}
            order by ${order} limit ${pageSize} offset ${offset}`.execute(db);
  const from = readsLookup(source, request, false) ? joinedFrom(source) : fromClause(source);
  // The count and the totals in one pass over the same filtered rows, so they always agree.
  const summed = totalColumns(source);
  const sums = summed.map((id) => sql`coalesce(sum(${expr(source, id)}), 0)::text as ${sql.ref(id)}`);
  const rollup =
    request.search.trim() === ''
      ? source.rollups?.find(
          (r) =>
            (base.length === 0 || r.base) &&
            request.filters.every((f) => r.expressions[f.id as Id] !== undefined) &&
            summed.every((id) => r.totals[id] !== undefined),
        )
      : undefined;
  const aggregates =
    conds.length === 0 && source.unfiltered
      ? source.unfiltered
      : rollup && conds.length > 0
        ? sql<Record<string, string> & { n: number }>`select ${sql.join([
            sql`coalesce(sum(${sql.raw(rollup.count)}), 0)::int as n`,
            ...summed.map(
              (id) => sql`coalesce(sum(${sql.raw(rollup.totals[id] ?? '')}), 0)::text as ${sql.ref(id)}`,
            ),
          ])} from ${sql.raw(rollup.from)} ${where(
            conditions(
              { ...source, expressions: { ...source.expressions, ...rollup.expressions } },
              request,
              rollup.base ? base : [],
            ),
          )}`
        : sql<Record<string, string> & { n: number }>`select ${sql.join([
            sql`count(*) as n`,
            ...sums,
          ])} from ${from} ${where(conds)}`;
  type Counted = Record<string, string> & { n: number };
  const counted = async (): Promise<Counted> =>
    (await aggregates.execute(db)).rows[0] ?? ({ n: 0 } as Counted);
  // Kept (keptCounts): the same statement with the same parameters, in the same scope, is the same question.
  const { n = 0, ...totals } = keep
    ? (JSON.parse(
        await keptSmall(
          keep.database,
          db,
          keep.answer,
          keep.part,
          countKey(keep.scope, aggregates, db),
          async () => JSON.stringify(await counted()),
        ),
      ) as Counted)
    : await counted();
  return {
    rows: present(source, rows),
    total: n,
    page: request.page,
    pageSize,
    totals,
  };
}

/** Applies the source's `present` functions to the columns that have one. */
function present<Id extends string, Row>(source: TableSource<Id>, rows: Row[]): Row[] {
  const makers = Object.entries(source.present ?? {}) as [string, (value: unknown) => unknown][];
  if (makers.length === 0) return rows;
  return rows.map((row) => {
    const out = { ...row } as Record<string, unknown>;
    for (const [id, make] of makers) if (id in out) out[id] = make(out[id]);
    return out as Row;
  });
}

/**
 * Every matching row, in the order the table shows them, held for reading after the request's transaction (see
 * heldCursor.ts): exports never hold the whole result, nor a transaction while the client downloads.
 */
export async function holdRows<Id extends string, Row>(
  db: Db,
  source: TableSource<Id>,
  request: TableRequest,
  columns: readonly string[],
  base: RawBuilder<unknown>[] = [],
): Promise<HeldCursor<Row>> {
  const ids = columns.map((id) => column(source, id, 'columns').id);
  const conds = conditions(source, request, base);
  const held = await holdCursor<Row>(
    db,
    sql<Row>`select ${selectList(source, ids)} from ${joinedFrom(source)} ${where(conds)}
    order by ${orderBy(source, request.sort)}`.compile(db),
  );
  return {
    forEachChunk: (connection, onChunk, chunkSize) =>
      held.forEachChunk(connection, (rows) => onChunk(present(source, rows)), chunkSize),
  };
}
