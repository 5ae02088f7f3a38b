import { Box, EmptyState, Loader, Paper, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconDatabaseOff } from '@tabler/icons-react';
import type { CSSProperties, Key, ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  width?: CSSProperties['width'];
  align?: 'left' | 'right' | 'center';
  /** Keep the cell on one line (dates, short labels). */
  nowrap?: boolean;
}

interface DataTableProps<Row> {
  /** Names the table for assistive technology (and for tests). */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => Key;
  loading: boolean;
  /** The load failed: a message fit to show. */
  error?: string | null;
  empty: { title: string; description: ReactNode };
  /** Shown under the rows, e.g. paging controls. */
  footer?: ReactNode;
}

/**
 * The product's table: typed columns, and loading, error and empty states that explain themselves.
 * Server-side filters, sorting and saved views join it when the report screens arrive.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  empty,
  footer,
}: DataTableProps<Row>) {
  let body: ReactNode;
  if (error) {
    body = (
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
    body = (
      <Box py={56} ta="center">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm" mt="xs">
          Loading…
        </Text>
      </Box>
    );
  } else if (!rows || rows.length === 0) {
    body = (
      <EmptyState
        py={48}
        icon={<IconDatabaseOff size={26} />}
        withIndicatorBackground
        title={empty.title}
        description={empty.description}
      />
    );
  }

  return (
    <Paper withBorder radius="md">
      {body ?? (
        // A plain overflow box, not ScrollArea: the table must take the container's width so long cells wrap.
        <Box style={{ overflowX: 'auto' }}>
          <Table aria-label={label} striped highlightOnHover verticalSpacing="sm" horizontalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th
                    key={column.key}
                    style={{
                      width: column.width,
                      textAlign: column.align,
                      whiteSpace: column.nowrap ? 'nowrap' : undefined,
                    }}
                  >
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows?.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.key}
                      style={{ textAlign: column.align, whiteSpace: column.nowrap ? 'nowrap' : undefined }}
                    >
                      {column.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
      {footer}
    </Paper>
  );
}
