import {
  type ColumnDef,
  type FilterState,
  filterState,
  type SavedFilters,
  type SortState,
  type TableDef,
  type TableQuery,
} from '@paydesk/domain';

/**
 * What a table shows: the part of the list state a user changes by working the table. It lives in the
 * URL (so reload and back keep the view) and a saved report is a named snapshot of it.
 */
export interface TableState {
  filters: FilterState[];
  sort: SortState[];
  search: string;
  page: number;
  pageSize: number;
  /** Visible column ids, in the table's column order. */
  columns: string[];
}

/** URL parameter names. Filters are `f.<column id>`; other parameters (e.g. the month) are left alone. */
export const PARAMS = { search: 'q', sort: 'sort', page: 'page', pageSize: 'size', columns: 'cols' } as const;
const FILTER_PREFIX = 'f.';

/**
 * A table's parameter names in the URL. Without a namespace they are the plain names (`q`, `f.mid`), so a
 * page with one table keeps short links; with one (`ach`) every name is prefixed (`ach.q`, `ach.f.code`),
 * so two tables on one page keep separate state.
 */
export function paramNames(namespace?: string) {
  const prefix = namespace ? `${namespace}.` : '';
  return {
    search: `${prefix}${PARAMS.search}`,
    sort: `${prefix}${PARAMS.sort}`,
    page: `${prefix}${PARAMS.page}`,
    pageSize: `${prefix}${PARAMS.pageSize}`,
    columns: `${prefix}${PARAMS.columns}`,
    filterPrefix: `${prefix}${FILTER_PREFIX}`,
  };
}
const RANGE_SEPARATOR = '..';

export function defaultColumns(def: TableDef): string[] {
  return def.columns.filter((column) => !column.hidden).map((column) => column.id);
}

export function defaultTableState(def: TableDef): TableState {
  return {
    filters: [],
    sort: [...def.defaultSort],
    search: '',
    page: 1,
    pageSize: def.defaultPageSize,
    columns: defaultColumns(def),
  };
}

/** A filter that narrows nothing (empty text, open range, no values) is no filter at all. */
export function isActiveFilter(filter: FilterState): boolean {
  switch (filter.kind) {
    case 'text':
      return filter.value.trim() !== '';
    case 'range':
      return filter.min !== null || filter.max !== null;
    case 'dateRange':
      return filter.from !== null || filter.to !== null;
    case 'select':
      return filter.values.length > 0;
  }
}

/**
 * Keeps the filters the table accepts: a known column, the column's filter kind, well-formed values
 * (whole numbers, real dates, min ≤ max), offered options only; one filter per column.
 */
export function cleanFilters(def: TableDef, filters: readonly unknown[]): FilterState[] {
  const out: FilterState[] = [];
  for (const candidate of filters) {
    const parsed = filterState.safeParse(candidate);
    if (!parsed.success) continue;
    const filter = parsed.data;
    const column = def.columns.find((c) => c.id === filter.id);
    if (!column || column.filter !== filter.kind) continue;
    if (out.some((f) => f.id === filter.id)) continue;
    if (filter.kind === 'select') {
      const values = filter.values.filter((v) => column.options?.includes(v));
      if (values.length > 0) out.push({ ...filter, values: [...new Set(values)] });
      continue;
    }
    if (filter.kind === 'text') {
      if (filter.value.trim() !== '') out.push({ ...filter, value: filter.value.trim() });
      continue;
    }
    if (isActiveFilter(filter)) out.push(filter);
  }
  return out;
}

export function cleanSort(def: TableDef, sort: readonly SortState[]): SortState[] {
  const out: SortState[] = [];
  for (const s of sort) {
    if (out.length >= 3 || out.some((o) => o.id === s.id)) continue;
    if (def.columns.some((c) => c.id === s.id && c.sortable)) out.push({ id: s.id, desc: s.desc });
  }
  return out;
}

/** Known ids in the table's order; at least one column stays visible (an export needs one). */
export function cleanColumns(def: TableDef, ids: readonly string[]): string[] {
  const wanted = new Set(ids);
  const out = def.columns.filter((c) => wanted.has(c.id)).map((c) => c.id);
  return out.length > 0 ? out : defaultColumns(def);
}

export function cleanPageSize(def: TableDef, size: number | undefined): number {
  return size !== undefined && def.pageSizes.includes(size) ? size : def.defaultPageSize;
}

function parseBound(text: string): number | null | undefined {
  if (text === '') return null;
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

function parseFilterParam(column: ColumnDef, values: string[]): unknown {
  const first = values[0] ?? '';
  switch (column.filter) {
    case 'text':
      return { id: column.id, kind: 'text', value: first };
    case 'select':
      return { id: column.id, kind: 'select', values };
    case 'range': {
      const [min = '', max = ''] = first.split(RANGE_SEPARATOR);
      return { id: column.id, kind: 'range', min: parseBound(min), max: parseBound(max) };
    }
    case 'dateRange': {
      const [from = '', to = ''] = first.split(RANGE_SEPARATOR);
      return { id: column.id, kind: 'dateRange', from: from || null, to: to || null };
    }
    default:
      return null;
  }
}

function filterParamValues(filter: FilterState): string[] {
  switch (filter.kind) {
    case 'text':
      return [filter.value];
    case 'select':
      return filter.values;
    case 'range':
      return [`${filter.min ?? ''}${RANGE_SEPARATOR}${filter.max ?? ''}`];
    case 'dateRange':
      return [`${filter.from ?? ''}${RANGE_SEPARATOR}${filter.to ?? ''}`];
  }
}

/** `tx_amt,-income`: ascending ids plain, descending ones with a minus. */
export function formatSort(sort: readonly SortState[]): string {
  return sort.map((s) => (s.desc ? `-${s.id}` : s.id)).join(',');
}

export function parseSort(text: string): SortState[] {
  return text
    .split(',')
    .filter((part) => part !== '' && part !== '-')
    .map((part) => (part.startsWith('-') ? { id: part.slice(1), desc: true } : { id: part, desc: false }));
}

const sameSort = (a: readonly SortState[], b: readonly SortState[]) => formatSort(a) === formatSort(b);
const sameList = (a: readonly string[], b: readonly string[]) => a.join(',') === b.join(',');

/** Reads the table state from the URL; anything malformed or unknown falls back to the table's defaults. */
export function readTableState(def: TableDef, params: URLSearchParams, namespace?: string): TableState {
  const names = paramNames(namespace);
  const candidates = def.columns
    .filter((column) => column.filter && params.has(`${names.filterPrefix}${column.id}`))
    .map((column) => parseFilterParam(column, params.getAll(`${names.filterPrefix}${column.id}`)));
  const sortText = params.get(names.sort);
  const page = Number(params.get(names.page) ?? '1');
  const size = params.get(names.pageSize);
  const cols = params.get(names.columns);
  return {
    filters: cleanFilters(def, candidates),
    // No parameter: the default sort; an empty one: the user turned sorting off.
    sort: sortText === null ? [...def.defaultSort] : cleanSort(def, parseSort(sortText)),
    search: (params.get(names.search) ?? '').slice(0, 100),
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
    pageSize: cleanPageSize(def, size === null ? undefined : Number(size)),
    columns: cols === null ? defaultColumns(def) : cleanColumns(def, cols.split(',')),
  };
}

/**
 * Writes the table state into a copy of `base`, leaving its other parameters (the month) in place and
 * omitting what equals the default, so an untouched table has a clean URL.
 */
export function writeTableState(
  def: TableDef,
  state: TableState,
  base: URLSearchParams,
  namespace?: string,
): URLSearchParams {
  const names = paramNames(namespace);
  const params = new URLSearchParams(base);
  for (const key of [...params.keys()]) {
    if (key.startsWith(names.filterPrefix)) params.delete(key);
  }
  for (const key of [names.search, names.sort, names.page, names.pageSize, names.columns]) params.delete(key);

  for (const filter of cleanFilters(def, state.filters)) {
    for (const value of filterParamValues(filter)) params.append(`${names.filterPrefix}${filter.id}`, value);
  }
  const sort = cleanSort(def, state.sort);
  if (!sameSort(sort, def.defaultSort)) params.set(names.sort, formatSort(sort));
  if (state.search.trim() !== '') params.set(names.search, state.search.trim());
  if (state.page > 1) params.set(names.page, String(state.page));
  const size = cleanPageSize(def, state.pageSize);
  if (size !== def.defaultPageSize) params.set(names.pageSize, String(size));
  const columns = cleanColumns(def, state.columns);
  if (!sameList(columns, defaultColumns(def))) params.set(names.columns, columns.join(','));
  return params;
}

/** A header click: ascending, then descending, then unsorted. */
export function nextSort(sort: readonly SortState[], id: string): SortState[] {
  const current = sort[0]?.id === id ? sort[0] : undefined;
  if (!current) return [{ id, desc: false }];
  if (!current.desc) return [{ id, desc: true }];
  return [];
}

export function sortDirection(sort: readonly SortState[], id: string): 'asc' | 'desc' | null {
  const current = sort.find((s) => s.id === id);
  if (!current) return null;
  return current.desc ? 'desc' : 'asc';
}

/** Sets (or, when it narrows nothing, removes) one column's filter, keeping the others. */
export function withFilter(
  filters: readonly FilterState[],
  id: string,
  filter: FilterState | null,
): FilterState[] {
  const others = filters.filter((f) => f.id !== id);
  return filter && isActiveFilter(filter) ? [...others, filter] : others;
}

export function toTableQuery(state: TableState): Required<TableQuery> {
  return {
    filters: state.filters,
    sort: state.sort,
    search: state.search,
    page: state.page,
    pageSize: state.pageSize,
  };
}

export function toSavedFilters(state: TableState): SavedFilters {
  return { filters: state.filters, sort: state.sort, search: state.search, pageSize: state.pageSize };
}

/** The view a saved report describes, cleaned against the table as it is now; back on page 1. */
export function fromSaved(def: TableDef, saved: SavedFilters, columns: readonly string[]): TableState {
  return {
    filters: cleanFilters(def, saved.filters),
    sort: cleanSort(def, saved.sort),
    search: saved.search.slice(0, 100),
    page: 1,
    pageSize: cleanPageSize(def, saved.pageSize),
    columns: cleanColumns(def, columns),
  };
}

// ---------------------------------------------------------------- filter inputs

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** How date filters are typed and shown: the same as the table's date cells. */
export const DATE_FORMAT = 'YYYY-MM-DD';

/**
 * A range filter's two boxes: whole numbers only (blank = open), within the column's limits (`rangeLimits`:
 * from 0 for counts, up to what the column holds), and the minimum must not exceed the maximum.
 */
export function parseRange(
  id: string,
  minText: string,
  maxText: string,
  limits?: { min: number; max: number },
): Parsed<FilterState> {
  const min = parseBound(minText.trim());
  const max = parseBound(maxText.trim());
  if (min === undefined || max === undefined) return { ok: false, error: 'Enter whole numbers only' };
  const bounds = [min, max].filter((b) => b !== null);
  if (limits && bounds.some((b) => b < limits.min)) {
    return { ok: false, error: `Enter whole numbers of ${limits.min.toLocaleString('en-US')} or more` };
  }
  if (limits && bounds.some((b) => b > limits.max)) {
    return { ok: false, error: `Enter whole numbers up to ${limits.max.toLocaleString('en-US')}` };
  }
  if (min !== null && max !== null && min > max) {
    return { ok: false, error: 'The minimum must not exceed the maximum' };
  }
  return { ok: true, value: { id, kind: 'range', min, max } };
}

export function parseDateRange(id: string, fromText: string, toText: string): Parsed<FilterState> {
  const from = fromText.trim() || null;
  const to = toText.trim() || null;
  const candidate = { id, kind: 'dateRange', from, to };
  const parsed = filterState.safeParse(candidate);
  if (!parsed.success) {
    const bothReal =
      filterState.safeParse({ ...candidate, to: null }).success &&
      filterState.safeParse({ ...candidate, from: null }).success;
    return {
      ok: false,
      error: bothReal ? 'The start date must not be after the end date' : 'Enter real dates',
    };
  }
  return { ok: true, value: parsed.data };
}

/** How an active filter reads in the list above the table. */
export function describeFilter(
  column: Pick<ColumnDef, 'label' | 'type' | 'optionLabels'>,
  filter: FilterState,
): string {
  switch (filter.kind) {
    case 'text':
      return `${column.label} starts with “${filter.value}”`;
    case 'select':
      return `${column.label}: ${filter.values.map((v) => column.optionLabels?.[v] ?? v).join(', ')}`;
    case 'range': {
      const fmt = (n: number) => n.toLocaleString('en-US');
      if (filter.min !== null && filter.max !== null)
        return `${column.label} ${fmt(filter.min)} – ${fmt(filter.max)}`;
      return filter.min !== null
        ? `${column.label} ≥ ${fmt(filter.min)}`
        : `${column.label} ≤ ${fmt(filter.max ?? 0)}`;
    }
    case 'dateRange': {
      if (filter.from && filter.to) return `${column.label} ${filter.from} – ${filter.to}`;
      return filter.from ? `${column.label} from ${filter.from}` : `${column.label} until ${filter.to}`;
    }
  }
}
