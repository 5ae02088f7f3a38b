import { Group, TextInput } from '@mantine/core';
import { BONUS_DEFAULT_PAGE_SIZE } from '@paydesk/domain';
import { IconSearch } from '@tabler/icons-react';
import { type Key, type ReactNode, useState } from 'react';
import { type Column, DataTable, Pager, type RowAction } from '../../components/DataTable';
import { LIST_PAGE_SIZES, lastPage, pageOf, pageSizeLabel, searchRows } from './listPaging';

interface ListTableProps<Row> {
  /** Names the table for assistive technology and tests. */
  label: string;
  /** What a row is, for the count: 'bonuses'. */
  noun: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  loading: boolean;
  error: string | null;
  empty: { title: string; description: ReactNode };
  rowKey: (row: Row, index: number) => Key;
  rowLabel?: (row: Row) => string;
  rowActions?: readonly RowAction<Row>[];
  /** The texts a search matches by prefix; absent, the table has no search box. */
  search?: { placeholder: string; fields: (row: Row) => unknown[] };
  /** Buttons at the right above the table (Add). */
  actions?: ReactNode;
  /** A title at the left above the table, where the search box would be. */
  heading?: ReactNode;
}

/**
 * A bonus list on the shared DataTable, held whole in the browser: the spec's calls answer every row of a
 * window, so paging (15, 25, 50, All) and the prefix search happen here.
 */
export function ListTable<Row>({
  label,
  noun,
  columns,
  rows,
  loading,
  error,
  empty,
  rowKey,
  rowLabel,
  rowActions,
  search,
  actions,
  heading,
}: ListTableProps<Row>) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(BONUS_DEFAULT_PAGE_SIZE);
  const [text, setText] = useState('');
  const found = rows && search ? searchRows(rows, text, search.fields) : rows;
  const total = found?.length;
  const shownPage = Math.min(page, lastPage(total ?? 0, size));
  const narrowed = text.trim() !== '';
  return (
    <>
      {(search || actions || heading) && (
        <Group justify="space-between" align="flex-end" mb="sm" gap="sm" mih={36}>
          {search ? (
            <TextInput
              aria-label={`Search ${label}`}
              placeholder={search.placeholder}
              leftSection={<IconSearch size={16} />}
              value={text}
              onChange={(event) => {
                setText(event.currentTarget.value);
                setPage(1);
              }}
              w={320}
            />
          ) : (
            (heading ?? <span />)
          )}
          <Group gap="sm">{actions}</Group>
        </Group>
      )}
      <DataTable<Row>
        label={label}
        // Rows stay one line high and the table scrolls sideways; a column may opt out (a sentence).
        columns={columns.map((column) => ({ ...column, nowrap: column.nowrap ?? true }))}
        rows={found ? pageOf(found, shownPage, size) : undefined}
        rowKey={rowKey}
        rowLabel={rowLabel}
        rowActions={rowActions}
        loading={loading}
        error={error}
        interactiveHeader
        empty={
          narrowed && rows && rows.length > 0
            ? {
                title: `No ${noun} start with “${text.trim()}”`,
                description: 'Clear the search to see them all.',
              }
            : empty
        }
        footer={
          <Pager
            page={shownPage}
            pageSize={size}
            pageSizes={LIST_PAGE_SIZES}
            sizeLabel={pageSizeLabel}
            total={total}
            noun={noun}
            onPage={setPage}
            onPageSize={(next) => {
              setSize(next);
              setPage(1);
            }}
          />
        }
      />
    </>
  );
}
