import { Group, Pagination, Select, Text } from '@mantine/core';
import { type ReactNode, useId } from 'react';

interface PagerProps {
  page: number;
  pageSize: number;
  pageSizes: readonly number[];
  total: number | undefined;
  /** What the rows are, for the count: 'merchants', 'rows'. */
  noun: string;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  /** Shown before the count, e.g. an Export button. */
  start?: ReactNode;
  /** How a page size reads in the choice ("All" for the size larger than any list); its number otherwise. */
  sizeLabel?: (size: number) => string;
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

export function Pager({
  page,
  pageSize,
  pageSizes,
  total,
  noun,
  onPage,
  onPageSize,
  start,
  sizeLabel = String,
}: PagerProps) {
  // Unique per pager: a screen may show several tables, each with its own page size.
  const sizeId = useId();
  const count = total ?? 0;
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const first = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, count);
  return (
    <Group
      justify="space-between"
      px="md"
      py="sm"
      gap="sm"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group gap="md">
        {start}
        <Text fz="sm" c="dimmed" data-testid="table-count">
          {total === undefined
            ? ' '
            : count === 0
              ? `No ${noun}`
              : `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} ${noun}`}
        </Text>
      </Group>
      <Group gap="md">
        <Group gap={6}>
          <Text fz="sm" c="dimmed" component="label" htmlFor={sizeId}>
            Rows per page
          </Text>
          <Select
            id={sizeId}
            size="xs"
            w={84}
            data={pageSizes.map((size) => ({ value: String(size), label: sizeLabel(size) }))}
            value={String(pageSize)}
            onChange={(value) => value && onPageSize(Number(value))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPage}
          withEdges
          siblings={1}
          getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        />
      </Group>
    </Group>
  );
}
