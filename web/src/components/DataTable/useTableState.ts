import type { FilterState, SavedFilters, SortState, TableDef } from '@paydesk/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  fromSaved,
  nextSort,
  readTableState,
  type TableState,
  toSavedFilters,
  withFilter,
  writeTableState,
} from './tableState';

export interface TableStateControls {
  state: TableState;
  setFilter: (id: string, filter: FilterState | null) => void;
  clearFilters: () => void;
  toggleSort: (id: string) => void;
  setSort: (sort: SortState[]) => void;
  setSearch: (search: string) => void;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  setColumns: (columns: string[]) => void;
  applySaved: (saved: SavedFilters, columns: readonly string[]) => void;
  /**
   * The view to save as a report (filters, sort, search, page size, visible columns), read from the address bar
   * now. `state` is that of the last render: a router navigation renders later (in a transition), so a report
   * saved right after a change (a column box ticked, then Save) would miss it.
   */
  savedView: () => { saved: SavedFilters; columns: string[] };
}

/**
 * The address bar's parameters now. The router's own "previous" parameters are those of the last render,
 * so two quick changes (two column boxes clicked in a row) would otherwise lose the first.
 */
export function latestParams(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}

/**
 * A table's list state, kept in the URL: reload, back and a shared link show the same view. Every change
 * except paging goes back to page 1, since the old page number means nothing in a different list.
 * A `namespace` prefixes the table's parameters, for a page that shows more than one table.
 */
export function useTableState(def: TableDef, namespace?: string): TableStateControls {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readTableState(def, params, namespace), [def, params, namespace]);

  const update = useCallback(
    (change: (current: TableState) => TableState) =>
      setParams(() => {
        const latest = latestParams();
        return writeTableState(def, change(readTableState(def, latest, namespace)), latest, namespace);
      }),
    [def, setParams, namespace],
  );

  return useMemo(
    () => ({
      state,
      setFilter: (id, filter) =>
        update((s) => ({ ...s, filters: withFilter(s.filters, id, filter), page: 1 })),
      clearFilters: () => update((s) => ({ ...s, filters: [], page: 1 })),
      toggleSort: (id) => update((s) => ({ ...s, sort: nextSort(s.sort, id), page: 1 })),
      setSort: (sort) => update((s) => ({ ...s, sort, page: 1 })),
      setSearch: (search) => update((s) => (s.search === search ? s : { ...s, search, page: 1 })),
      setPage: (page) => update((s) => ({ ...s, page })),
      setPageSize: (pageSize) => update((s) => ({ ...s, pageSize, page: 1 })),
      setColumns: (columns) => update((s) => ({ ...s, columns })),
      applySaved: (saved, columns) => update(() => fromSaved(def, saved, columns)),
      savedView: () => {
        const now = readTableState(def, latestParams(), namespace);
        return { saved: toSavedFilters(now), columns: now.columns };
      },
    }),
    [state, update, def, namespace],
  );
}
