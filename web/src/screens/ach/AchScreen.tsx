import { Alert, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ACH_CLASSIFICATION_COLORS,
  ACH_EDITABLE_COLUMNS,
  ACH_EXPORT_FILE,
  type AchClassification,
  type AchEditableColumn,
  achEndpoints,
  achTable,
  hasPermission,
  type ReturnRateLevel,
  type ReturnRateRow,
  type TablePage,
} from '@paydesk/domain';
import { IconAlertTriangle, IconFileExport, IconHistory, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { call } from '../../app/api';
import { achKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import {
  defColumn,
  formatValue,
  type Row,
  ServerTable,
  type ServerTableDefinition,
  toSavedFilters,
  useServerTable,
} from '../../components/DataTable';
import { ExportModal } from '../../components/ExportModal';
import { PageHeader } from '../../components/PageHeader';
import { type SavedReportCalls, SavedReports } from '../../components/SavedReports';
import { AchEditCell } from './AchEditCell';
import { AchHistoryDrawer } from './AchHistoryDrawer';
import classes from './AchScreen.module.css';
import { type AchRow, achRowId, saveProblem } from './achEdit';
import { achRowName, CLASSIFICATION_MEANING, entryDescriptionText, returnCodeText } from './achView';
import { ReturnRatePanel } from './ReturnRatePanel';
import { rateRowFilters } from './returnRateView';
import { createRowSaves } from './rowSaves';

const ACH_TABLE: ServerTableDefinition<typeof achEndpoints.table.extra> = {
  def: achTable,
  endpoints: achEndpoints.table,
  keys: { page: achKeys.page, preview: achKeys.preview },
};

/** Spec document 3 §7: ACH's own saved-report calls. */
const ACH_REPORT_CALLS: SavedReportCalls = {
  namesKey: achKeys.savedNames(),
  names: (email) => call(achEndpoints.getAllReports, { email }),
  load: (email, name) => call(achEndpoints.getReport, { email, name }),
  save: (body) => call(achEndpoints.saveReport, body),
  remove: (email, name) => call(achEndpoints.deleteReport, { email, name }),
};

const columnOf = (id: string) => achTable.columns.find((c) => c.id === id);
const labelOf = (id: string) => columnOf(id)?.label ?? id;

interface StaleEdit {
  row: AchRow;
  column: AchEditableColumn;
  typed: string | null;
  message: string;
}

/**
 * ACH returns (spec document 2 §2.7): every returned debit, classified and worked in place. Everyone signed in
 * reads and exports (partner staff their own ISO's rows, by the server); holders of ACH editing edit the
 * resolution, reserve, re-run, collections, write-off, comment and dates inline.
 */
export default function AchScreen() {
  const user = useSessionUser();
  const canEdit = hasPermission(user, 'ach_edit');
  const queryClient = useQueryClient();
  const ach = useServerTable(ACH_TABLE, { extra: {}, loadError: 'The ACH returns could not be loaded.' });
  const { controls, narrowed } = ach;
  const { state } = controls;
  const saves = useRef(createRowSaves()).current;
  const [exporting, setExporting] = useState(false);
  const [historyOf, setHistoryOf] = useState<AchRow | null>(null);
  const [stale, setStale] = useState<StaleEdit | null>(null);

  /** The saved row in every cached page that shows it, at once; the pages are then asked for again. */
  const patchRow = (saved: AchRow) => {
    const id = achRowId(saved);
    queryClient.setQueriesData<TablePage<Row>>({ queryKey: achKeys.pages() }, (page) =>
      page ? { ...page, rows: page.rows.map((r) => (achRowId(r) === id ? { ...r, ...saved } : r)) } : page,
    );
  };

  const saveCell =
    (row: AchRow, column: AchEditableColumn) => async (value: string | null, startedAt: number) => {
      const id = achRowId(row);
      try {
        await saves.save(id, startedAt, async (version) => {
          const answer = await call(achEndpoints.update, {
            unique_key: Number(row.main_unique_key),
            column,
            value,
            historic: Number(row.historic) === 1 ? 1 : 0,
            version,
          });
          patchRow(answer.row);
          return { version: Number(answer.row.version), result: undefined };
        });
        if (stale && achRowId(stale.row) === id) setStale(null);
        // The legal name's balance and Alert move on its other rows too; the history gains a line.
        void queryClient.invalidateQueries({ queryKey: achKeys.pages() });
        void queryClient.invalidateQueries({ queryKey: achKeys.history(id) });
      } catch (failure) {
        const problem = saveProblem(failure);
        if (problem.stale) {
          // The row stays as loaded, with the typed value in the cell, until the user chooses to reload it.
          setStale({ row, column, typed: value, message: problem.title });
        } else {
          notifications.show({
            color: 'red',
            title: problem.title,
            message: `${labelOf(column)} of ${achRowName(row)} was not saved.${problem.detail ? ` ${problem.detail}` : ''}`,
            autoClose: 8000,
          });
        }
        throw new Error(problem.stale ? problem.title : (problem.detail ?? problem.title));
      }
    };

  const reloadRows = async () => {
    await queryClient.invalidateQueries({ queryKey: achKeys.pages() });
    setStale(null);
  };

  const editCells = Object.fromEntries(
    ACH_EDITABLE_COLUMNS.map((column) => [
      column,
      (row: Row) => (
        <AchEditCell
          row={row}
          column={column}
          label={`${labelOf(column)} of ${achRowName(row)}`}
          onSave={saveCell(row, column)}
        />
      ),
    ]),
  );

  const cells: Record<string, (row: Row) => ReactNode> = {
    AddendaRelated: returnCodeText,
    CompanyEntryDescription: entryDescriptionText,
    classification: (row) => {
      const value = row.classification as AchClassification | null;
      if (!value) return '—';
      return (
        <Tooltip label={CLASSIFICATION_MEANING[value]} withArrow>
          <Badge
            color={ACH_CLASSIFICATION_COLORS[value] ?? 'gray'}
            variant="light"
            radius="sm"
            className={classes.badge}
          >
            {value}
          </Badge>
        </Tooltip>
      );
    },
    Alert: (row) =>
      row.Alert === 'Yes' ? (
        <Tooltip
          label="The legal name owes on its returns while this MID's reserve holds money, and it has other MIDs"
          withArrow
          multiline
          maw={300}
        >
          <Badge
            color="red"
            variant="filled"
            radius="sm"
            className={classes.badge}
            leftSection={<IconAlertTriangle size={12} />}
          >
            Alert
          </Badge>
        </Tooltip>
      ) : (
        <Text fz="sm" c="dimmed">
          No
        </Text>
      ),
    ...(canEdit ? editCells : {}),
  };

  const showRates = (level: ReturnRateLevel, row: ReturnRateRow, window: { from: string; to: string }) =>
    controls.applySaved(
      { ...toSavedFilters(state), filters: rateRowFilters(level, row, window), search: '' },
      state.columns,
    );

  return (
    <>
      <PageHeader
        title="ACH Returns"
        description={
          canEdit
            ? 'Every returned debit to a merchant’s account. Work a row in place: a text or amount saves when you leave it or press Enter, a resolution when you choose it.'
            : 'Every returned debit to a merchant’s account, its classification and how it was worked. Editing needs the ACH editing permission.'
        }
      />
      <ReturnRatePanel onShow={showRates} />
      <SavedReports calls={ACH_REPORT_CALLS} current={controls.savedView} onLoad={controls.applySaved} />
      {stale && (
        <Alert
          color="orange"
          variant="light"
          mb="sm"
          icon={<IconAlertTriangle size={18} />}
          title={`${labelOf(stale.column)} of ${achRowName(stale.row)} was not saved`}
          role="alert"
          withCloseButton
          onClose={() => setStale(null)}
        >
          <Group justify="space-between" gap="sm" wrap="nowrap">
            <Text fz="sm">
              {stale.message}
              {stale.typed !== null && ` You entered “${stale.typed}”.`}
            </Text>
            <Button
              size="xs"
              variant="filled"
              color="orange"
              leftSection={<IconRefresh size={14} />}
              onClick={reloadRows}
            >
              Reload row
            </Button>
          </Group>
        </Alert>
      )}
      <ServerTable
        {...ach.table}
        label="ACH returns"
        noun="returns"
        searchPlaceholder="Search MID, DBA or legal name"
        empty={{
          filtered: 'No returns match these filters',
          unfiltered: 'No ACH returns recorded',
          unfilteredHint: 'Returned debits appear here once the bank’s return files are loaded.',
        }}
        cells={cells}
        rowKey={achRowId}
        rowLabel={achRowName}
        rowActions={[{ label: 'History', icon: <IconHistory size={14} />, onClick: setHistoryOf }]}
        actions={
          <Button
            variant="default"
            leftSection={<IconFileExport size={16} />}
            onClick={() => setExporting(true)}
          >
            Export XLSX
          </Button>
        }
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export ACH returns to XLSX"
        subject={`${narrowed ? 'The returns matching the filters and search in force' : 'Every return'}, the ${state.columns.length} visible columns, in the order shown.`}
        columns={ach.visibleColumns.map((column) => ({
          ...defColumn(column),
          ...(cells[column.id] && !(ACH_EDITABLE_COLUMNS as readonly string[]).includes(column.id)
            ? { render: cells[column.id] as (row: Row) => ReactNode }
            : { render: (row: Row) => formatValue(column, row[column.id]) }),
        }))}
        previewKey={ach.previewKey}
        loadPreview={ach.loadPreview}
        download={{ ...ach.exportDownload, fallbackName: ACH_EXPORT_FILE }}
      />
      <AchHistoryDrawer row={historyOf} onClose={() => setHistoryOf(null)} />
    </>
  );
}
