import { Button, Group, Pill, Text } from '@mantine/core';
import type { ColumnDef, TableDef, TablePage } from '@paydesk/domain';
import type { Key, ReactNode } from 'react';
import { type CellType, formatCell, formatCount, isNegativeAmount, isNumericType } from '../format';
import { ColumnsMenu } from './ColumnsMenu';
import { type Column, DataTable, type RowAction, type SummaryRow } from './DataTable';
import classes from './DataTable.module.css';
import { FilterPopover } from './FilterPopover';
import { Pager } from './Pager';
import { SearchBox } from './SearchBox';
import { describeFilter, sortDirection } from './tableState';
import type { TableStateControls } from './useTableState';

export type Row = Record<string, unknown>;

interface ServerTableProps {
  label: string;
  def: TableDef;
  controls: TableStateControls;
  data: TablePage<Row> | undefined;
  loading: boolean;
  error: string | null;
  /** What a row is, for the count: 'merchants'. */
  noun: string;
  searchPlaceholder: string;
  /** Explains an empty list: narrowed by the user, or nothing there at all (and what to do about it). */
  empty: { filtered: string; unfiltered: string; unfilteredHint?: string };
  /** Columns of long text (a sentence) that wrap instead of widening the table. */
  wrapping?: readonly string[];
  /** Buttons beside the search, e.g. Export and Import. */
  actions?: ReactNode;
  /** Columns drawn by the screen rather than as text by type (a state as a badge, progress as a bar). */
  cells?: Readonly<Partial<Record<string, (row: Row) => ReactNode>>>;
  rowActions?: readonly RowAction<Row>[];
  /** Names a row in its actions' labels: "Deliver an e-mail queued 2026-11-22 15:05". */
  rowLabel?: (row: Row) => string;
  /** A row's detail under it while open (see DataTable). */
  expandedRow?: (row: Row) => ReactNode;
  /** Buttons in the footer, before the count and paging (the Partners table's Export). */
  footerActions?: ReactNode;
  /**
   * A row's identity, for tables whose cells keep state of their own (inline inputs): without it rows are
   * keyed by position, and a re-sorted page would hand one row's typing to another.
   */
  rowKey?: (row: Row) => Key;
}

/** A value of a column as shown: by type, a code by its label, amounts below zero in red. */
export function formatValue(column: ColumnDef, value: unknown): ReactNode {
  if (column.optionLabels && typeof value === 'string') return column.optionLabels[value] ?? value;
  const text = formatCell(column.type as CellType, value);
  return column.type === 'money' && isNegativeAmount(value) ? (
    <span className={classes.negative}>{text}</span>
  ) : (
    text
  );
}

/** A column of a TableDef as a table column: formatted by type, numbers right-aligned. */
export function defColumn(
  column: ColumnDef,
): Pick<Column<Row>, 'key' | 'header' | 'render' | 'align' | 'nowrap' | 'pinned'> {
  const numeric = isNumericType(column.type as CellType);
  return {
    key: column.id,
    header: column.label,
    render: (row) => formatValue(column, row[column.id]),
    align: numeric ? 'right' : undefined,
    // Report rows stay one line high; the table scrolls sideways instead.
    nowrap: true,
    pinned: column.pinned,
  };
}

/** The totals row: the server's sums over every filtered row, under the visible total columns. */
function summaryRow(def: TableDef, visible: readonly string[], data: TablePage<Row> | undefined) {
  if (!data) return undefined;
  const values: SummaryRow['values'] = {};
  for (const column of def.columns) {
    const sum = data.totals?.[column.id];
    if (column.total && sum !== undefined && visible.includes(column.id)) {
      values[column.id] = formatValue(column, sum);
    }
  }
  if (Object.keys(values).length === 0) return undefined;
  return {
    label: `Total (all ${formatCount(data.total)} filtered rows)`,
    values,
  };
}

/**
 * A TableDef on screen, with its data from the server: search, per-column filters, header sorting,
 * column choice and paging, all as URL state owned by useTableState.
 */
export function ServerTable({
  label,
  def,
  controls,
  data,
  loading,
  error,
  noun,
  searchPlaceholder,
  empty,
  actions,
  wrapping = [],
  cells = {},
  rowActions,
  rowLabel,
  expandedRow,
  footerActions,
  rowKey,
}: ServerTableProps) {
  const { state } = controls;
  const narrowed = state.filters.length > 0 || state.search !== '';
  const columns: Column<Row>[] = def.columns
    .filter((column) => state.columns.includes(column.id))
    .map((column) => ({
      ...defColumn(column),
      ...(cells[column.id] ? { render: cells[column.id] } : {}),
      // One wrapping column (a sentence beside short values) takes 40%; several share what the others leave.
      ...(wrapping.includes(column.id)
        ? { nowrap: false, width: wrapping.length === 1 ? '40%' : undefined }
        : {}),
      sort: column.sortable
        ? { direction: sortDirection(state.sort, column.id), onToggle: () => controls.toggleSort(column.id) }
        : undefined,
      headerAction: column.filter ? (
        <FilterPopover
          column={column}
          filter={state.filters.find((f) => f.id === column.id)}
          onApply={(filter) => controls.setFilter(column.id, filter)}
        />
      ) : undefined,
    }));

  const filtersInForce = state.filters.flatMap((filter) => {
    const column = def.columns.find((c) => c.id === filter.id);
    return column ? [{ filter, column }] : [];
  });

  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm">
        <Group gap="sm">
          <SearchBox value={state.search} onSearch={controls.setSearch} placeholder={searchPlaceholder} />
          <ColumnsMenu def={def} visible={state.columns} onChange={controls.setColumns} />
        </Group>
        <Group gap="sm">{actions}</Group>
      </Group>
      <DataTable<Row>
        label={label}
        columns={columns}
        rows={data?.rows}
        rowKey={rowKey ?? ((_, index) => `${state.page}-${index}`)}
        loading={loading}
        error={error}
        interactiveHeader
        summary={summaryRow(def, state.columns, data)}
        rowActions={rowActions}
        rowLabel={rowLabel}
        expandedRow={expandedRow}
        empty={
          narrowed
            ? { title: empty.filtered, description: 'Clear a filter or the search to see more.' }
            : {
                title: empty.unfiltered,
                description: empty.unfilteredHint ?? 'Choose another month; this one has no rows yet.',
              }
        }
        header={
          filtersInForce.length > 0 ? (
            <Group
              gap={6}
              px="md"
              py={8}
              style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
              aria-label="Filters in force"
              role="group"
            >
              <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
                Filters
              </Text>
              {filtersInForce.map(({ filter, column }) => (
                <Pill
                  key={filter.id}
                  withRemoveButton
                  onRemove={() => controls.setFilter(filter.id, null)}
                  removeButtonProps={{ 'aria-label': `Remove filter ${column.label}` }}
                >
                  {describeFilter(column, filter)}
                </Pill>
              ))}
              <Button variant="subtle" size="compact-xs" onClick={controls.clearFilters}>
                Clear all
              </Button>
            </Group>
          ) : null
        }
        footer={
          <Pager
            page={state.page}
            pageSize={state.pageSize}
            pageSizes={def.pageSizes}
            total={data?.total}
            noun={noun}
            onPage={controls.setPage}
            onPageSize={controls.setPageSize}
            start={footerActions}
          />
        }
      />
    </>
  );
}
