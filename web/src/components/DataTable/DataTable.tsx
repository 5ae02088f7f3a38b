import {
  ActionIcon,
  Box,
  Button,
  Checkbox,
  EmptyState,
  Group,
  Loader,
  LoadingOverlay,
  Menu,
  Paper,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowDown,
  IconArrowsSort,
  IconArrowUp,
  IconDatabaseOff,
  IconDots,
} from '@tabler/icons-react';
import {
  type CSSProperties,
  Fragment,
  type Key,
  type ReactNode,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import classes from './DataTable.module.css';
import { type CellEditor, EditableCell } from './EditableCell';
import { pageSelection, togglePage, toggleRow } from './selection';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  width?: CSSProperties['width'];
  align?: 'left' | 'right' | 'center';
  /** Keep the cell on one line (dates, short labels, amounts). */
  nowrap?: boolean;
  /** Sortable columns get a header button; the direction shown is the current one. */
  sort?: { direction: 'asc' | 'desc' | null; onToggle: () => void };
  /** A control beside the header text, e.g. the column's filter. */
  headerAction?: ReactNode;
  /** Stays in view at the left while the table scrolls sideways; long text ends in an ellipsis. */
  pinned?: boolean;
  /** Edits the value in place (see EditableCell); the cell shows `render` until clicked. */
  edit?: CellEditor<Row>;
}

/** Something done to one row: a button in the row's last cell, or, past two, an item of the row's menu. */
export interface RowAction<Row> {
  label: string;
  icon?: ReactNode;
  onClick: (row: Row) => void;
  disabled?: (row: Row) => boolean;
  /** Offered only on the rows it applies to (Run again on a failed run). */
  appliesTo?: (row: Row) => boolean;
  color?: string;
}

/** Something done to the selected rows at once, from the bar above the table. */
export interface BulkAction {
  label: string;
  icon?: ReactNode;
  onClick: (ids: Key[]) => void;
  color?: string;
}

/**
 * Ticked rows, owned by the screen so they survive paging (the set holds ids, not rows). The screen clears
 * it after a bulk action.
 */
export interface RowSelection {
  selected: ReadonlySet<Key>;
  onChange: (selected: Set<Key>) => void;
  actions: readonly BulkAction[];
}

/** A last row under the rows: a label and a value under some columns (the totals of a report). */
export interface SummaryRow {
  label: ReactNode;
  values: Record<string, ReactNode>;
}

interface DataTableProps<Row> {
  /** Names the table for assistive technology (and for tests). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row, index: number) => Key;
  loading: boolean;
  /** The load failed: a message fit to show. */
  error?: string | null;
  empty: { title: string; description: ReactNode };
  /** Shown above the rows, inside the frame, e.g. the filters in force. */
  header?: ReactNode;
  /** Shown under the rows, e.g. paging controls. */
  footer?: ReactNode;
  /**
   * Keep the column headers (and their sort and filter controls) on screen while empty or failed, so a
   * user can undo the filter that emptied the list. Also makes the header stick while the rows scroll.
   */
  interactiveHeader?: boolean;
  /** Tighter rows for previews. */
  compact?: boolean;
  /** A totals row under the rows; it stays in view while the rows scroll. */
  summary?: SummaryRow;
  /** Names a row for screen readers, in its actions' and checkbox's labels: "MID 7410". */
  rowLabel?: (row: Row) => string;
  rowActions?: readonly RowAction<Row>[];
  /** Adds a checkbox column and, while rows are ticked, a bar with the bulk actions. */
  selection?: RowSelection;
  /** What shows under a row across the whole width (a detail card), or null while the row is closed. */
  expandedRow?: (row: Row) => ReactNode;
}

/**
 * The left offset of each pinned column: the widths of the pinned columns before it, measured, since the
 * widths follow the content.
 */
function usePinnedOffsets(keys: readonly string[]) {
  const cells = useRef(new Map<string, HTMLTableCellElement>());
  const [offsets, setOffsets] = useState<Record<string, number>>({});
  const signature = keys.join('|');
  useLayoutEffect(() => {
    const pinned = signature === '' ? [] : signature.split('|');
    if (pinned.length === 0) return;
    const measure = () => {
      let left = 0;
      const next: Record<string, number> = {};
      for (const key of pinned) {
        next[key] = left;
        left += cells.current.get(key)?.getBoundingClientRect().width ?? 0;
      }
      setOffsets((old) => (JSON.stringify(old) === JSON.stringify(next) ? old : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const key of pinned) {
      const cell = cells.current.get(key);
      if (cell) observer.observe(cell);
    }
    return () => observer.disconnect();
  }, [signature]);
  const ref = (key: string) => (cell: HTMLTableCellElement | null) => {
    if (cell) cells.current.set(key, cell);
    else cells.current.delete(key);
  };
  return { offsets, ref };
}

/**
 * Where the summary's label goes: over the pinned columns when there are some (so it stays in view),
 * otherwise over the leading columns that have no value.
 */
function labelSpan<Row>(columns: readonly Column<Row>[], values: Record<string, ReactNode>) {
  const firstPinned = columns.findIndex((c) => c.pinned);
  const start = firstPinned >= 0 ? firstPinned : 0;
  let end = start + 1;
  const fits = (c: Column<Row>) => (firstPinned >= 0 ? c.pinned : true) && !(c.key in values);
  while (end < columns.length && fits(columns[end] as Column<Row>)) end++;
  return { start, span: end - start };
}

function cellContent<Row>(column: Column<Row>, row: Row): ReactNode {
  const shown = column.pinned ? <PinnedText>{column.render(row)}</PinnedText> : column.render(row);
  return column.edit ? (
    <EditableCell row={row} editor={column.edit}>
      {shown}
    </EditableCell>
  ) : (
    shown
  );
}

const SORT_LABEL = { asc: 'ascending', desc: 'descending' } as const;

function HeaderCell<Row>({ column }: { column: Column<Row> }) {
  const direction = column.sort?.direction ?? null;
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconArrowsSort;
  const title = column.sort ? (
    <UnstyledButton
      onClick={column.sort.onToggle}
      fz="sm"
      fw={700}
      title={direction ? `Sorted ${SORT_LABEL[direction]}; click to change` : 'Click to sort'}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
    >
      {column.header}
      <Icon size={14} stroke={2} style={{ opacity: direction ? 1 : 0.35 }} aria-hidden />
    </UnstyledButton>
  ) : (
    column.header
  );
  if (!column.headerAction) return title;
  return (
    <Group
      gap={2}
      wrap="nowrap"
      justify={column.align === 'right' ? 'flex-end' : 'flex-start'}
      style={{ whiteSpace: 'nowrap' }}
    >
      {title}
      {column.headerAction}
    </Group>
  );
}

/** A pinned cell's text: one line, cut with an ellipsis, the whole text on hover. */
function PinnedText({ children }: { children: ReactNode }) {
  return (
    <div className={classes.pinnedText} title={typeof children === 'string' ? children : undefined}>
      {children}
    </div>
  );
}

function RowActionsCell<Row>({
  row,
  actions,
  name,
}: {
  row: Row;
  actions: readonly RowAction<Row>[];
  name: string;
}) {
  const offered = actions.filter((action) => action.appliesTo?.(row) ?? true);
  if (offered.length === 0) return null;
  // By the actions the table has, not those this row is offered, so every row takes the same form.
  if (actions.length <= 2) {
    return (
      <Group gap={6} justify="flex-end" wrap="nowrap">
        {offered.map((action) => (
          <Button
            key={action.label}
            size="xs"
            variant="light"
            color={action.color}
            leftSection={action.icon}
            disabled={action.disabled?.(row)}
            onClick={() => action.onClick(row)}
            aria-label={`${action.label} ${name}`}
          >
            {action.label}
          </Button>
        ))}
      </Group>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {offered.map((action) => (
          <Menu.Item
            key={action.label}
            leftSection={action.icon}
            color={action.color}
            disabled={action.disabled?.(row)}
            onClick={() => action.onClick(row)}
          >
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** An open row's detail, across every column; its own background keeps it apart from the striped rows. */
function ExpandedRow({ content, span }: { content: ReactNode; span: number }) {
  if (content === null || content === undefined || content === false) return null;
  return (
    <Table.Tr className={classes.expanded}>
      <Table.Td colSpan={span} p="md">
        {content}
      </Table.Td>
    </Table.Tr>
  );
}

function BulkBar({ selection }: { selection: RowSelection }) {
  const ids = [...selection.selected];
  return (
    <Group
      gap="sm"
      px="md"
      py={8}
      bg="blue.0"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      role="group"
      aria-label="Selected rows"
    >
      <Text fz="sm" fw={600} aria-live="polite">
        {ids.length.toLocaleString('en-US')} selected
      </Text>
      {selection.actions.map((action) => (
        <Button
          key={action.label}
          size="compact-sm"
          variant="light"
          color={action.color}
          leftSection={action.icon}
          onClick={() => action.onClick(ids)}
        >
          {action.label}
        </Button>
      ))}
      <Button size="compact-sm" variant="subtle" color="gray" onClick={() => selection.onChange(new Set())}>
        Clear selection
      </Button>
    </Group>
  );
}

/**
 * The product's table: typed columns, header sorting and filter controls, and loading, error and empty
 * states that explain themselves. Report screens feed it through ServerTable (a TableDef and a server
 * query); simple lists give it their columns directly.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  empty,
  header,
  footer,
  interactiveHeader = false,
  compact = false,
  summary,
  rowLabel,
  rowActions,
  selection,
  expandedRow,
}: DataTableProps<Row>) {
  let state: ReactNode = null;
  if (error) {
    state = (
      <EmptyState
        py={48}
        icon={<IconAlertTriangle size={26} />}
        variant="light"
        color="red"
        title="Could not load this list"
        description={error}
      />
    );
  } else if (loading && !rows) {
    state = (
      <Box py={56} ta="center">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm" mt="xs">
          Loading…
        </Text>
      </Box>
    );
  } else if (!rows || rows.length === 0) {
    state = (
      <EmptyState
        py={48}
        icon={<IconDatabaseOff size={26} />}
        withIndicatorBackground
        title={empty.title}
        description={empty.description}
      />
    );
  }
  const showTable = state === null || interactiveHeader;
  const bodyRows = state === null ? rows : [];
  const pinnedKeys = columns.filter((c) => c.pinned).map((c) => c.key);
  const pins = usePinnedOffsets(pinnedKeys);
  const lastPinned = pinnedKeys[pinnedKeys.length - 1];
  const pinClass = (column: Column<Row>) =>
    column.pinned
      ? `${classes.pinned}${column.key === lastPinned ? ` ${classes.lastPinned}` : ''}`
      : undefined;
  const pinStyle = (column: Column<Row>): CSSProperties =>
    column.pinned ? { left: pins.offsets[column.key] ?? 0 } : {};
  const place = summary ? labelSpan(columns, summary.values) : null;
  const columnCount = columns.length + (selection ? 1 : 0) + (rowActions && rowActions.length > 0 ? 1 : 0);
  const nameOf = (row: Row, index: number) => rowLabel?.(row) ?? `row ${index + 1}`;
  const pageIds = (bodyRows ?? []).map((row, index) => rowKey(row, index));
  const onPage = selection ? pageSelection(selection.selected, pageIds) : 'none';
  // The summary row spans the data columns only; the checkbox and actions cells around it stay empty.
  const selectCell = (content: ReactNode) =>
    selection ? <Table.Td style={{ width: 36 }}>{content}</Table.Td> : null;
  const actionsCell = (content: ReactNode) =>
    rowActions && rowActions.length > 0 ? (
      <Table.Td style={{ textAlign: 'right' }}>{content}</Table.Td>
    ) : null;

  return (
    <Paper withBorder radius="md" pos="relative">
      {header}
      {selection && selection.selected.size > 0 && <BulkBar selection={selection} />}
      {showTable && (
        // A plain overflow box, not ScrollArea: the table must take the container's width so long cells wrap.
        <Box
          pos="relative"
          style={{
            overflow: 'auto',
            maxHeight: interactiveHeader ? 'calc(100vh - 300px)' : undefined,
            minHeight: interactiveHeader && state === null ? 120 : undefined,
          }}
        >
          <LoadingOverlay
            visible={loading && !!rows}
            zIndex={3}
            overlayProps={{ backgroundOpacity: 0.55, blur: 1 }}
            loaderProps={{ size: 'sm' }}
          />
          <Table
            aria-label={label}
            aria-busy={loading}
            striped
            highlightOnHover
            stickyHeader={interactiveHeader}
            verticalSpacing={compact ? 6 : interactiveHeader ? 'xs' : 'sm'}
            horizontalSpacing="sm"
            fz={compact ? 'xs' : 'sm'}
          >
            <Table.Thead>
              <Table.Tr>
                {selection && (
                  <Table.Th style={{ width: 36 }}>
                    <Checkbox
                      aria-label="Select every row on this page"
                      checked={onPage === 'all'}
                      indeterminate={onPage === 'some'}
                      disabled={pageIds.length === 0}
                      onChange={() => selection.onChange(togglePage(selection.selected, pageIds))}
                    />
                  </Table.Th>
                )}
                {columns.map((column) => (
                  <Table.Th
                    key={column.key}
                    ref={column.pinned ? pins.ref(column.key) : undefined}
                    className={pinClass(column)}
                    aria-sort={
                      column.sort
                        ? column.sort.direction
                          ? (`${SORT_LABEL[column.sort.direction]}` as const)
                          : 'none'
                        : undefined
                    }
                    style={{
                      width: column.width,
                      textAlign: column.align,
                      whiteSpace: column.nowrap ? 'nowrap' : undefined,
                      ...pinStyle(column),
                    }}
                  >
                    <HeaderCell column={column} />
                  </Table.Th>
                ))}
                {rowActions && rowActions.length > 0 && (
                  <Table.Th>
                    <span className={classes.visuallyHidden}>Actions</span>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bodyRows?.map((row, index) => (
                <Fragment key={rowKey(row, index)}>
                  <Table.Tr
                    aria-selected={selection ? selection.selected.has(rowKey(row, index)) : undefined}
                  >
                    {selectCell(
                      <Checkbox
                        aria-label={`Select ${nameOf(row, index)}`}
                        checked={selection?.selected.has(rowKey(row, index)) ?? false}
                        onChange={() =>
                          selection?.onChange(toggleRow(selection.selected, rowKey(row, index)))
                        }
                      />,
                    )}
                    {columns.map((column) => (
                      <Table.Td
                        key={column.key}
                        className={pinClass(column)}
                        style={{
                          textAlign: column.align,
                          whiteSpace: column.nowrap ? 'nowrap' : undefined,
                          ...pinStyle(column),
                        }}
                      >
                        {cellContent(column, row)}
                      </Table.Td>
                    ))}
                    {actionsCell(
                      <RowActionsCell row={row} actions={rowActions ?? []} name={nameOf(row, index)} />,
                    )}
                  </Table.Tr>
                  <ExpandedRow content={expandedRow?.(row)} span={columnCount} />
                </Fragment>
              ))}
            </Table.Tbody>
            {summary && place && state === null && (
              <Table.Tfoot>
                <Table.Tr className={classes.totals}>
                  {selectCell(null)}
                  {columns.map((column, index) => {
                    if (index > place.start && index < place.start + place.span) return null;
                    const isLabel = index === place.start;
                    return (
                      <Table.Td
                        key={column.key}
                        colSpan={isLabel ? place.span : undefined}
                        className={pinClass(column)}
                        style={{ textAlign: isLabel ? 'left' : column.align, ...pinStyle(column) }}
                      >
                        {isLabel ? summary.label : summary.values[column.key]}
                      </Table.Td>
                    );
                  })}
                  {actionsCell(null)}
                </Table.Tr>
              </Table.Tfoot>
            )}
          </Table>
        </Box>
      )}
      {state}
      {footer}
    </Paper>
  );
}
