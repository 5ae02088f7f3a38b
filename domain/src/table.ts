import { z } from 'zod';
import { endpoint, FILE_ANSWER } from './endpoint';

/**
 * The table toolkit's contract: every table in the product is described by column definitions and asked
 * for with a TableQuery. Filtering, sorting and paging happen on the server over the whitelisted columns.
 */

/** How a column's values are shown and exported. `datetime` is a timestamp, shown to the minute. */
export type ColumnType = 'text' | 'integer' | 'money' | 'decimal' | 'date' | 'datetime' | 'percent';

/** How a column can be filtered: text by case-insensitive prefix, whole-number range, date range, or a set of values. */
export type FilterKind = 'text' | 'range' | 'dateRange' | 'select';

export interface ColumnDef<Id extends string = string> {
  id: Id;
  label: string;
  type: ColumnType;
  filter?: FilterKind;
  /** Values offered by a select filter. */
  options?: readonly string[];
  /** How a select filter shows each value, when the stored value is a code. */
  optionLabels?: Readonly<Record<string, string>>;
  /** The smallest number a range filter accepts (the server refuses less): 0 for counts. */
  min?: number;
  /** Hidden until the user shows it. */
  hidden?: boolean;
  sortable?: boolean;
  /** Stays in view at the left while the table scrolls sideways (the row's identity: MID, DBA). */
  pinned?: boolean;
  /** Summed over every filtered row in the table's totals row (money and counts). */
  total?: boolean;
}

/** The largest value a PostgreSQL integer holds: the bounds of a range filter on an integer column. */
export const INTEGER_MAX = 2_147_483_647;
/** Range bounds on other number columns (money) stay within what numeric(14,2) holds. */
export const AMOUNT_MAX = 1e12;

/**
 * The range filter bounds a column accepts: never below its `min`, and within what its type holds, so a
 * bound the database cannot compare is refused as bad input instead of failing the query.
 */
export function rangeLimits(column: Pick<ColumnDef, 'type' | 'min'>): { min: number; max: number } {
  const max = column.type === 'integer' ? INTEGER_MAX : AMOUNT_MAX;
  return { min: Math.max(column.min ?? -max, -max), max };
}

export interface TableDef<Id extends string = string> {
  columns: readonly ColumnDef<Id>[];
  pageSizes: readonly number[];
  defaultPageSize: number;
  defaultSort: readonly SortState[];
}

/** The dates PayDesk accepts anywhere: wide enough for any merchant's history, narrow enough for date arithmetic. */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2100-12-31';
export const inDateBounds = (s: string) => s >= DATE_MIN && s <= DATE_MAX;
export const DATE_BOUNDS_MESSAGE = `Dates must be between ${DATE_MIN} and ${DATE_MAX}`;

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD')
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'Not a real date',
    },
  )
  .refine(inDateBounds, DATE_BOUNDS_MESSAGE);

const columnId = z.string().min(1).max(64);
const wholeNumber = z
  .number()
  .int('Range filters take whole numbers')
  .min(-AMOUNT_MAX, 'A range bound is too large')
  .max(AMOUNT_MAX, 'A range bound is too large');

export const filterState = z.discriminatedUnion('kind', [
  z.strictObject({ id: columnId, kind: z.literal('text'), value: z.string().max(100) }),
  z
    .strictObject({
      id: columnId,
      kind: z.literal('range'),
      min: wholeNumber.nullable(),
      max: wholeNumber.nullable(),
    })
    .refine((f) => f.min === null || f.max === null || f.min <= f.max, {
      message: 'The minimum must not exceed the maximum',
    }),
  z
    .strictObject({
      id: columnId,
      kind: z.literal('dateRange'),
      from: isoDate.nullable(),
      to: isoDate.nullable(),
    })
    .refine((f) => f.from === null || f.to === null || f.from <= f.to, {
      message: 'The start date must not be after the end date',
    }),
  z.strictObject({ id: columnId, kind: z.literal('select'), values: z.array(z.string().max(100)).max(100) }),
]);
export type FilterState = z.infer<typeof filterState>;

export const sortState = z.strictObject({ id: columnId, desc: z.boolean() });
export type SortState = z.infer<typeof sortState>;

/** What a table asks for; the same state is kept in the URL and saved in a report. */
const view = {
  filters: z.array(filterState).max(60).default([]),
  sort: z.array(sortState).max(3).default([]),
  /** The search box: a case-insensitive prefix matched against the table's searchable columns. */
  search: z.string().max(100).default(''),
};

export const tableQuery = z.strictObject({
  ...view,
  page: z.number().int().min(1).max(1_000_000).default(1),
  /** One of the table's page sizes; omitted, the table's default page size. */
  pageSize: z.number().int().min(1).max(1000).optional(),
});
export type TableQuery = z.input<typeof tableQuery>;

/** A table's page call: its own fields (the month shown…) and the view. */
export const tablePageBody = <E extends z.ZodRawShape>(extra: E) => tableQuery.extend(extra);
/** A table's export call: its own fields, the view and the visible columns in order. */
export const tableExportBody = <E extends z.ZodRawShape>(extra: E) =>
  z.strictObject({ ...extra, ...view, columns: z.array(z.string().min(1).max(64)).min(1).max(100) });

export interface TablePage<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
  /**
   * The sum of each `total` column over every filtered row (not just the page), as an exact decimal
   * string: column id → sum. Empty for tables without such columns.
   */
  totals: Record<string, string>;
}

/** A page answer of any toolkit table: rows keyed by column id. */
export const tablePageAnswer = z.object({
  rows: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  totals: z.record(z.string(), z.string()),
});

/** A toolkit table's two calls: a page of rows, and the .xlsx of every filtered row in the visible columns. */
export function tableEndpoints<E extends z.ZodRawShape>(
  title: string,
  paths: { query: string; export: string },
  extra: E,
) {
  return {
    /** The table's own fields, which both calls take. */
    extra,
    query: endpoint({
      method: 'POST',
      path: paths.query,
      summary: `${title}: a page of rows, filtered, sorted and searched, with the totals of every filtered row`,
      input: tablePageBody(extra),
      output: tablePageAnswer,
    }),
    export: endpoint({
      method: 'POST',
      path: paths.export,
      summary: `${title}: every filtered row in the visible columns, as an .xlsx file`,
      input: tableExportBody(extra),
      output: FILE_ANSWER,
    }),
  };
}
export type TableEndpoints<E extends z.ZodRawShape> = ReturnType<typeof tableEndpoints<E>>;

/** Rows of a preview before an export. */
export const EXPORT_PREVIEW_ROWS = 10;
export const SEARCH_DEBOUNCE_MS = 1000;
export const TOAST_MS = 3000;
