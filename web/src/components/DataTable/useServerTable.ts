import {
  EXPORT_PREVIEW_ROWS,
  type InputOf,
  type TableDef,
  type TableEndpoints,
  type TablePage,
  type TableQuery,
  type tableEndpoints,
} from '@paydesk/domain';
import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import type { ExportPreview } from '../ExportModal';
import { toTableQuery } from './tableState';
import { useTableState } from './useTableState';

/** The table's own request fields as the domain declares them (`{ dt: month }`…). */
type ExtraShape = Parameters<typeof tableEndpoints>[2];
type PageBody<Shape extends ExtraShape> = InputOf<TableEndpoints<Shape>['query']>;

/**
 * A toolkit table as the web sees it: the domain's TableDef, its query and export endpoints (from
 * `tableEndpoints`), and where its pages and export previews sit in the query cache (so a screen can
 * invalidate them).
 */
export interface ServerTableDefinition<Shape extends ExtraShape = ExtraShape> {
  def: TableDef;
  endpoints: Pick<TableEndpoints<Shape>, 'query' | 'export'>;
  keys: { page: (body: object) => QueryKey; preview: (body: object) => QueryKey };
}

export interface ServerTableOptions<Shape extends ExtraShape> {
  /** Body fields beyond the table query that pick the rows, e.g. the month: `{ dt }`. */
  extra: Omit<PageBody<Shape>, keyof TableQuery>;
  /** Prefixes the table's URL parameters; needed only when a page shows more than one table. */
  namespace?: string;
  /** The message when a page cannot be loaded and the server gave none. */
  loadError: string;
  /**
   * Reloads the page every few seconds while this holds for the page shown (rows still changing on the
   * server, such as e-mails being delivered). These reloads keep the rows on screen without the loading veil.
   */
  refreshWhile?: (page: TablePage<Record<string, unknown>>) => boolean;
}

/** How often a page that is still changing is reloaded. */
export const REFRESH_MS = 3000;

/** The smallest page the server accepts that holds a preview. */
export function previewPageSize(def: Pick<TableDef, 'pageSizes' | 'defaultPageSize'>): number {
  const sizes = [...def.pageSizes].sort((a, b) => a - b);
  return sizes.find((size) => size >= EXPORT_PREVIEW_ROWS) ?? sizes[sizes.length - 1] ?? def.defaultPageSize;
}

/**
 * One table on screen, whatever it lists: its state in the URL, the page from the server (the previous
 * page stays up while the next loads), and the export's body and preview. `table` spreads into
 * ServerTable; the rest feeds ExportModal.
 */
export function useServerTable<Shape extends ExtraShape>(
  definition: ServerTableDefinition<Shape>,
  { extra, namespace, loadError, refreshWhile }: ServerTableOptions<Shape>,
) {
  const { def, endpoints, keys } = definition;
  const controls = useTableState(def, namespace);
  const { state } = controls;

  // TypeScript cannot put a generic Omit back together with the fields it left out; the parts are checked.
  const body = { ...extra, ...toTableQuery(state) } as unknown as PageBody<Shape>;
  const page = useQuery({
    queryKey: keys.page(body),
    queryFn: () => call(endpoints.query, body),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      refreshWhile && query.state.data && refreshWhile(query.state.data) ? REFRESH_MS : false,
  });

  const previewBody = { ...body, page: 1, pageSize: previewPageSize(def) };
  const loadPreview = async (): Promise<ExportPreview> => {
    const answer = await call(endpoints.query, previewBody);
    return { rows: answer.rows, total: answer.total };
  };

  return {
    controls,
    /** What ServerTable needs. */
    table: {
      def,
      controls,
      data: page.data,
      loading: page.isFetching && !(refreshWhile && page.isRefetching),
      error: page.error ? errorMessage(page.error, loadError) : null,
    },
    /** The user narrowed the list (a filter or a search): exports and empty states say so. */
    narrowed: state.filters.length > 0 || state.search !== '',
    visibleColumns: def.columns.filter((c) => state.columns.includes(c.id)),
    /** The export: the same rows as on screen (every page), the visible columns in their order. */
    exportDownload: {
      path: endpoints.export.path,
      body: {
        ...extra,
        filters: state.filters,
        sort: state.sort,
        search: state.search,
        columns: state.columns,
      },
    },
    previewKey: keys.preview(previewBody),
    loadPreview,
  };
}
