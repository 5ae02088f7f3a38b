import { hasPermission, monthLabel, type UploadColumn } from '@paydesk/domain';
import { useState } from 'react';
import { useSessionUser } from '../../app/session';
import { defColumn, ServerTable, toSavedFilters } from '../DataTable';
import { TableActions } from '../DataTable/TableActions';
import { ExportModal } from '../ExportModal';
import { ImportModal } from '../ImportModal';
import { MonthSelect } from '../MonthSelect';
import { PageHeader } from '../PageHeader';
import { SavedReports } from '../SavedReports';
import { type MonthReportSource, useMonthReport } from './useMonthReport';

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
  const report = useMonthReport(props);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const { controls, month } = report;
  const { state } = controls;
  const label = monthLabel(month);
  const canImport = hasPermission(user, 'import_reports');
  const narrowed = state.filters.length > 0 || state.search !== '';

  return (
    <>
      <PageHeader
        title={props.title}
        description={props.description}
        actions={
          <MonthSelect
            value={month}
            onChange={report.setMonth}
            min={props.firstMonth}
            max={props.lastMonth}
          />
        }
      />
      <SavedReports
        table={props.table}
        current={() => ({ saved: toSavedFilters(state), columns: state.columns })}
        onLoad={controls.applySaved}
      />
      <ServerTable
        label={props.title}
        def={props.def}
        controls={controls}
        data={report.page}
        loading={report.loading}
        error={report.error}
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
        columns={props.def.columns.filter((c) => state.columns.includes(c.id)).map(defColumn)}
        previewKey={report.previewKey}
        loadPreview={report.loadPreview}
        download={{ path: props.paths.export, body: report.exportBody, fallbackName: props.fileName(month) }}
      />
      {canImport && (
        <ImportModal
          opened={importing}
          onClose={() => setImporting(false)}
          title={`Import XLSX into ${label}`}
          path={report.importPath}
          columns={props.importColumns}
          replaces={props.importReplaces(label)}
          onImported={report.refresh}
        />
      )}
    </>
  );
}
