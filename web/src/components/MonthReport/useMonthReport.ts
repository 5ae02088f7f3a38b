import {
  EXPORT_PREVIEW_ROWS,
  type MonthExportBody,
  type MonthTableBody,
  type ReportTable,
  type TableDef,
  type TablePage,
} from '@paydesk/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage, post } from '../../app/api';
import { reportKeys } from '../../app/queryKeys';
import { type Row, toTableQuery, useTableState } from '../DataTable';
import type { ExportPreview } from '../ExportModal';
import { useMonthParam } from '../MonthSelect';

export interface MonthReportSource {
  table: ReportTable;
  def: TableDef;
  paths: { query: string; export: string; import: string };
  firstMonth: string;
  lastMonth: string;
}

/** The smallest page the server accepts that holds a preview. */
export function previewPageSize(def: Pick<TableDef, 'pageSizes' | 'defaultPageSize'>): number {
  const sizes = [...def.pageSizes].sort((a, b) => a - b);
  return sizes.find((size) => size >= EXPORT_PREVIEW_ROWS) ?? sizes[sizes.length - 1] ?? def.defaultPageSize;
}

/** A month report's data: the month and table state from the URL, the page from the server, export and import. */
export function useMonthReport(source: MonthReportSource) {
  const { table, def, paths, firstMonth, lastMonth } = source;
  const [month, setMonth] = useMonthParam(firstMonth, lastMonth, lastMonth);
  const controls = useTableState(def);
  const queryClient = useQueryClient();
  const { state } = controls;

  const body: MonthTableBody = { dt: month, ...toTableQuery(state) };
  const page = useQuery({
    queryKey: reportKeys.page(table, body),
    queryFn: () => post<TablePage<Row>>(paths.query, body),
    placeholderData: keepPreviousData,
  });

  const exportBody: MonthExportBody = {
    dt: month,
    filters: state.filters,
    sort: state.sort,
    search: state.search,
    columns: state.columns,
  };
  const previewBody: MonthTableBody = { ...body, page: 1, pageSize: previewPageSize(def) };
  const loadPreview = async (): Promise<ExportPreview> => {
    const answer = await post<TablePage<Row>>(paths.query, previewBody);
    return { rows: answer.rows, total: answer.total };
  };

  return {
    month,
    setMonth,
    controls,
    page: page.data,
    loading: page.isFetching,
    error: page.error ? errorMessage(page.error, 'The report could not be loaded.') : null,
    exportBody,
    previewKey: reportKeys.preview(table, previewBody),
    loadPreview,
    importPath: `${paths.import}?dt=${month}`,
    /** After an import: every page, preview and count of this table is out of date. */
    refresh: () => queryClient.invalidateQueries({ queryKey: reportKeys.table(table) }),
  };
}
