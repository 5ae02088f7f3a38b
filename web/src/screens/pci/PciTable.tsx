import { Button } from '@mantine/core';
import type { ReportTable, TableDef, TableEndpoints, tableEndpoints } from '@paydesk/domain';
import { IconFileExport } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { pciKeys } from '../../app/queryKeys';
import {
  defColumn,
  formatValue,
  type Row,
  ServerTable,
  type ServerTableDefinition,
  type ServerTableOptions,
  useServerTable,
} from '../../components/DataTable';
import { ExportModal } from '../../components/ExportModal';
import { SavedReports, tableReportCalls } from '../../components/SavedReports';

type ExtraShape = Parameters<typeof tableEndpoints>[2];

export interface PciTableProps<Shape extends ExtraShape> {
  /** The report table the saved reports belong to; also the table's URL namespace and cache key. */
  report: ReportTable;
  def: TableDef;
  endpoints: TableEndpoints<Shape>;
  /** The month of the Billing and Commissions tables. */
  extra: ServerTableOptions<NoInfer<Shape>>['extra'];
  label: string;
  noun: string;
  searchPlaceholder: string;
  empty: { filtered: string; unfiltered: string; unfilteredHint?: string };
  exportFile: { name: string };
  /** Cells drawn by the screen (the inline editors of Old Merchants). */
  cells?: Record<string, (row: Row) => ReactNode>;
  /** Columns whose cells are inputs: the export writes their values as text. */
  editable?: readonly string[];
  rowKey?: (row: Row) => string;
  /** Buttons beside Export (the billing run). */
  actions?: ReactNode;
}

/**
 * One PCI tab's table on the shared DataTable: prefix text filters, date ranges, sorting, page sizes 25-500,
 * saved reports per user (the shared report calls, told apart by table) and the XLSX export of what is shown.
 */
export function PciTable<Shape extends ExtraShape>({
  report,
  def,
  endpoints,
  extra,
  label,
  noun,
  searchPlaceholder,
  empty,
  exportFile,
  cells = {},
  editable = [],
  rowKey,
  actions,
}: PciTableProps<Shape>) {
  const definition: ServerTableDefinition<Shape> = {
    def,
    endpoints,
    keys: {
      page: (body: object) => pciKeys.page(report, body),
      preview: (body: object) => pciKeys.preview(report, body),
    },
  };
  const table = useServerTable(definition, {
    // NoInfer only steers inference at the call site; the type is the same.
    extra: extra as ServerTableOptions<Shape>['extra'],
    namespace: report,
    loadError: `The ${noun} could not be loaded.`,
  });
  const { controls, narrowed } = table;
  const { state } = controls;
  const [exporting, setExporting] = useState(false);

  return (
    <>
      <SavedReports
        calls={tableReportCalls(report)}
        current={controls.savedView}
        onLoad={controls.applySaved}
      />
      <ServerTable
        {...table.table}
        label={label}
        noun={noun}
        searchPlaceholder={searchPlaceholder}
        empty={empty}
        cells={cells}
        rowKey={rowKey}
        actions={
          <>
            {actions}
            <Button
              variant="default"
              leftSection={<IconFileExport size={16} />}
              onClick={() => setExporting(true)}
            >
              Export XLSX
            </Button>
          </>
        }
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title={`Export ${label} to XLSX`}
        subject={`${narrowed ? `The ${noun} matching the filters and search in force` : `Every one of the ${noun}`}, the ${state.columns.length} visible columns, in the order shown.`}
        columns={table.visibleColumns.map((column) => ({
          ...defColumn(column),
          ...(cells[column.id] && !editable.includes(column.id)
            ? { render: cells[column.id] as (row: Row) => ReactNode }
            : { render: (row: Row) => formatValue(column, row[column.id]) }),
        }))}
        previewKey={table.previewKey}
        loadPreview={table.loadPreview}
        download={{ ...table.exportDownload, fallbackName: exportFile.name }}
      />
    </>
  );
}
