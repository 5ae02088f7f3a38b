import {
  hasPermission,
  monthLabel,
  type monthTableExtra,
  type ReportTable,
  type TableDef,
  type UploadColumn,
} from '@paydesk/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { reportKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import { defColumn, ServerTable, type ServerTableDefinition, useServerTable } from '../DataTable';
import { TableActions } from '../DataTable/TableActions';
import { ExportModal } from '../ExportModal';
import { ImportModal } from '../ImportModal';
import { MonthSelect, useMonthParam } from '../MonthSelect';
import { PageHeader } from '../PageHeader';
import { SavedReports, tableReportCalls } from '../SavedReports';

export interface MonthReportSource {
  table: ReportTable;
  def: TableDef;
  /** The table's page and export calls (`reportEndpoints.selfServeTable`…). */
  endpoints: ServerTableDefinition<typeof monthTableExtra>['endpoints'];
  /** Where a spreadsheet for the month is imported. */
  importPath: string;
  firstMonth: string;
  lastMonth: string;
}

export interface MonthReportProps extends MonthReportSource {
  title: string;
  description: string;
  /** What a row is, for counts: 'merchants'. */
  noun: string;
  searchPlaceholder: string;
  empty: { filtered: string; unfiltered: string };
  importColumns: readonly UploadColumn[];
  /** What importing a file replaces, for the month shown. */
  importReplaces: (monthLabel: string) => string;
  /** The file name used when the server does not name the file. */
  fileName: (month: string) => string;
}

/** A month report (Self Serve, Residual Self Serve): month, saved reports, the table, export and import. */
export function MonthReport(props: MonthReportProps) {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [month, setMonth] = useMonthParam(props.firstMonth, props.lastMonth, props.lastMonth);
  const report = useServerTable(
    {
      def: props.def,
      endpoints: props.endpoints,
      keys: {
        page: (body) => reportKeys.page(props.table, body),
        preview: (body) => reportKeys.preview(props.table, body),
      },
    },
    { extra: { dt: month }, loadError: 'The report could not be loaded.' },
  );
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const { controls, narrowed } = report;
  const { state } = controls;
  const label = monthLabel(month);
  const canImport = hasPermission(user, 'import_reports');

  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        actions={
          <MonthSelect value={month} onChange={setMonth} min={props.firstMonth} max={props.lastMonth} />
        }
      />
      <SavedReports
        calls={tableReportCalls(props.table)}
        current={controls.savedView}
        onLoad={controls.applySaved}
      />
      <ServerTable
        {...report.table}
        label={props.title}
        noun={props.noun}
        searchPlaceholder={props.searchPlaceholder}
        empty={props.empty}
        actions={
          <TableActions
            onExport={() => setExporting(true)}
            onImport={canImport ? () => setImporting(true) : undefined}
          />
        }
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title={`Export ${props.title.replace(/ \(BETA\)$/, '')} to XLSX`}
        subject={`${label}, ${narrowed ? 'with the filters and search in force' : 'all rows'}, the ${state.columns.length} visible columns, in the order shown.`}
        columns={report.visibleColumns.map(defColumn)}
        previewKey={report.previewKey}
        loadPreview={report.loadPreview}
        download={{ ...report.exportDownload, fallbackName: props.fileName(month) }}
      />
      {canImport && (
        <ImportModal
          opened={importing}
          onClose={() => setImporting(false)}
          title={`Import XLSX into ${label}`}
          path={`${props.importPath}?dt=${month}`}
          columns={props.importColumns}
          replaces={props.importReplaces(label)}
          // Every page, preview and count of this table is out of date.
          onImported={() => queryClient.invalidateQueries({ queryKey: reportKeys.table(props.table) })}
        />
      )}
    </>
  );
}
