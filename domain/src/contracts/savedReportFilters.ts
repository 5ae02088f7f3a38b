import { z } from 'zod';
import type { FilterState, TableDef } from '../table';
import type { savedFilters } from './reports';

/**
 * `filtr` of /api/savereport in the spec's form: a JSON list of column-to-filter-value pairs, as the older
 * client sends it (`[{"id":"dba","value":"Ac"}, {"id":"volume","value":[100,null]}]`). Each value is read by its
 * column's filter: text → a prefix, range → [min, max], dateRange → [from, to], select → a list (or one value).
 * PayDesk's own client sends the object form (`savedFilters`), which is what is stored either way.
 */
export const filterPairs = z
  .array(z.strictObject({ id: z.string().min(1).max(64), value: z.unknown() }))
  .max(60);
export type FilterPair = z.infer<typeof filterPairs>[number];

const bound = z.union([z.number(), z.string().max(30), z.null()]).transform((v) => (v === '' ? null : v));
const pairOf = z.tuple([bound, bound]);

/** The object form of a list of pairs, validated against the table's filters; throws a readable message. */
export function filtersFromPairs(def: TableDef, pairs: readonly FilterPair[]): z.input<typeof savedFilters> {
  const filters: FilterState[] = pairs.map(({ id, value }, i) => {
    const column = def.columns.find((c) => c.id === id);
    if (!column?.filter) throw new Error(`${i}.id: ${id} is not a filterable column`);
    switch (column.filter) {
      case 'text':
        if (typeof value !== 'string') throw new Error(`${i}.value: ${column.label} takes text`);
        return { id, kind: 'text', value };
      case 'select': {
        const values = typeof value === 'string' ? [value] : value;
        if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
          throw new Error(`${i}.value: ${column.label} takes a list of values`);
        return { id, kind: 'select', values: values as string[] };
      }
      case 'range':
      case 'dateRange': {
        const parsed = pairOf.safeParse(value);
        if (!parsed.success) throw new Error(`${i}.value: ${column.label} takes [from, to]`);
        const [from, to] = parsed.data;
        if (column.filter === 'dateRange') {
          if (typeof from === 'number' || typeof to === 'number')
            throw new Error(`${i}.value: ${column.label} takes dates written YYYY-MM-DD`);
          return { id, kind: 'dateRange', from, to };
        }
        const number = (v: number | string | null) => (v === null ? null : Number(v));
        const [min, max] = [number(from), number(to)];
        const floor = column.min;
        if (floor !== undefined && [min, max].some((v) => v !== null && v < floor))
          throw new Error(`${i}.value: ${column.label} starts at ${floor}`);
        return { id, kind: 'range', min, max };
      }
    }
    throw new Error(`${i}.id: ${id} is not a filterable column`);
  });
  return { filters };
}
