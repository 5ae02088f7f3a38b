import {
  type ReportTable,
  type SavedFilters,
  type SavedReport,
  type SaveReportBody,
  savedColumns,
  savedFilters,
  savedReportEndpoints,
} from '@paydesk/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../app/api';
import { reportKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';

/** A saved report's stored JSON, read back; null when it is not a report this client can show. */
export function parseSavedReport(report: SavedReport): { saved: SavedFilters; columns: string[] } | null {
  try {
    const filters = savedFilters.safeParse(JSON.parse(report.filters));
    const columns = savedColumns.safeParse(JSON.parse(report.columns));
    if (!filters.success || !columns.success) return null;
    return { saved: filters.data, columns: columns.data };
  } catch {
    return null;
  }
}

/** The signed-in user's saved reports of one table (the server only ever answers with the user's own). */
export function useSavedReports(table: ReportTable) {
  const { email } = useSessionUser();
  const queryClient = useQueryClient();
  const names = useQuery({
    queryKey: reportKeys.savedNames(table),
    queryFn: () => call(savedReportEndpoints.getAllReports, { email, table }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: reportKeys.savedNames(table) });

  const load = useMutation({
    mutationFn: (name: string) => call(savedReportEndpoints.getReport, { email, name, table }),
  });
  const save = useMutation({
    mutationFn: ({ name, saved, columns }: { name: string; saved: SavedFilters; columns: string[] }) => {
      const body: SaveReportBody = {
        email,
        saveTextboxVal: name,
        filtr: JSON.stringify(saved),
        visCol: JSON.stringify(columns),
        table,
      };
      return call(savedReportEndpoints.saveReport, body);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) => call(savedReportEndpoints.deleteReport, { email, name, table }),
    onSettled: refresh,
  });
  return { names, load, save, remove };
}
