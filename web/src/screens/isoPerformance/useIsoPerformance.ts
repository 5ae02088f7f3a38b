import {
  EXPORT_PREVIEW_ROWS,
  isoEndpoints,
  isoPartnersTable,
  isoPartnersTableEndpoints,
  monthStart,
  SALES_FIRST_MONTH,
  salesPaths,
  type TableDef,
} from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { salesKeys } from '../../app/queryKeys';
import { type Row, toTableQuery, useTableState } from '../../components/DataTable';
import type { ExportPreview } from '../../components/ExportModal';
import { useMonthParam } from '../../components/MonthSelect';
import { todayIso } from '../sales/salesModel';
import { useSalesCall } from '../sales/useSalesDashboard';
import { statusBody } from './isoModel';

export const ISO_EXPORT_PATH = salesPaths.isoPartnersExport;

/** The ISO performance screen's data: the month and table state in the URL, the page and the statuses. */
export function useIsoPerformance(def: TableDef) {
  const current = monthStart(new Date());
  const [month, setMonth] = useMonthParam(SALES_FIRST_MONTH, current, current);
  const controls = useTableState(def);
  const { state } = controls;

  const body = { month, ...toTableQuery(state) };
  const page = useQuery({
    queryKey: salesKeys.isoTable(body),
    queryFn: () => call(isoPartnersTableEndpoints.query, body),
    placeholderData: keepPreviousData,
  });

  const statuses = useSalesCall(isoEndpoints.partnersStatus, statusBody(month, todayIso()), { live: false });

  const previewBody = {
    ...body,
    page: 1,
    pageSize: Math.min(...isoPartnersTable.pageSizes.filter((s) => s >= EXPORT_PREVIEW_ROWS)),
  };
  const loadPreview = async (): Promise<ExportPreview> => {
    const answer = await call(isoPartnersTableEndpoints.query, previewBody);
    return { rows: answer.rows, total: answer.total };
  };

  return {
    month,
    setMonth,
    current,
    controls,
    page: page.data,
    loading: page.isFetching,
    error: page.error ? errorMessage(page.error, 'The partners could not be loaded.') : null,
    statuses,
    exportBody: {
      month,
      filters: state.filters,
      sort: state.sort,
      search: state.search,
      columns: state.columns,
    },
    previewKey: salesKeys.isoPreview(previewBody),
    loadPreview,
  };
}
