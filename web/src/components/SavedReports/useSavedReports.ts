import {
  type ReportTable,
  type SavedFilters,
  type SavedReport,
  type SavedReportName,
  type SaveReportBody,
  savedColumns,
  savedFilters,
  savedReportEndpoints,
} from '@paydesk/domain';
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

type SaveBody = Omit<SaveReportBody, 'table'>;
interface ReportChange {
  success: boolean;
  reportName: string;
}

/**
 * The four calls of a table's saved reports and where their names sit in the query cache. Self Serve and
 * Residual share the spec's calls (told apart by `table`); ACH has calls of its own.
 */
export interface SavedReportCalls {
  namesKey: QueryKey;
  names: (email: string) => Promise<SavedReportName[]>;
  load: (email: string, name: string) => Promise<SavedReport>;
  save: (body: SaveBody) => Promise<ReportChange>;
  remove: (email: string, name: string) => Promise<ReportChange>;
}

/** The shared calls (/api/getallreports…) for one report table. */
export function tableReportCalls(table: ReportTable): SavedReportCalls {
  return {
    namesKey: reportKeys.savedNames(table),
    names: (email) => call(savedReportEndpoints.getAllReports, { email, table }),
    load: (email, name) => call(savedReportEndpoints.getReport, { email, name, table }),
    save: (body) => call(savedReportEndpoints.saveReport, { ...body, table }),
    remove: (email, name) => call(savedReportEndpoints.deleteReport, { email, name, table }),
  };
}

/** The signed-in user's saved reports of one table (the server only ever answers with the user's own). */
export function useSavedReports(calls: SavedReportCalls) {
  const { email } = useSessionUser();
  const queryClient = useQueryClient();
  const names = useQuery({ queryKey: calls.namesKey, queryFn: () => calls.names(email) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: calls.namesKey });

  const load = useMutation({ mutationFn: (name: string) => calls.load(email, name) });
  const save = useMutation({
    mutationFn: ({ name, saved, columns }: { name: string; saved: SavedFilters; columns: string[] }) =>
      calls.save({
        email,
        saveTextboxVal: name,
        filtr: JSON.stringify(saved),
        visCol: JSON.stringify(columns),
      }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) => calls.remove(email, name),
    onSettled: refresh,
  });
  return { names, load, save, remove };
}
