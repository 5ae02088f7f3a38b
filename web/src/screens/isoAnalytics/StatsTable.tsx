import { Group, Paper, Text, Title, Tooltip } from '@mantine/core';
import { type IsoStatsRow, STATS_PAGE_SIZES } from '@paydesk/domain';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { type Column, DataTable } from '../../components/DataTable';
import { Pager } from '../../components/DataTable/Pager';
import { formatCount, formatCurrency } from '../../components/format';

type StatsRow = IsoStatsRow;

/** A column's definition, behind an icon beside its header. */
function Help({ text }: { text: string }) {
  return (
    <Tooltip label={text} multiline w={260} withArrow>
      <IconInfoCircle size={14} style={{ opacity: 0.55 }} aria-label={text} />
    </Tooltip>
  );
}

const money = (v: string | null) => formatCurrency(v);

const COLUMNS: readonly Column<StatsRow>[] = [
  { key: 'groupname', header: 'Partner', render: (r) => r.groupname, pinned: true, nowrap: true, width: 240 },
  { key: 'first', header: 'First deal', render: (r) => r.first ?? '—', nowrap: true },
  { key: 'last', header: 'Last deal', render: (r) => r.last ?? '—', nowrap: true },
  {
    key: 'avgdaysbw',
    header: 'Avg days between deals',
    headerAction: (
      <Help text="Days from the first to the last approval in the months shown, divided by the approvals less one." />
    ),
    render: (r) => r.avgdaysbw ?? '—',
    align: 'right',
  },
  { key: 'openCount', header: 'Open', render: (r) => formatCount(r.openCount), align: 'right' },
  { key: 'approvedCount', header: 'Approved', render: (r) => formatCount(r.approvedCount), align: 'right' },
  {
    key: 'retentionPercent',
    header: 'Retention',
    headerAction: <Help text="Open merchants as a percent of those approved." />,
    render: (r) => (r.retentionPercent === null ? '—' : `${r.retentionPercent}%`),
    align: 'right',
  },
  {
    key: 'TotalIncomePerDeal',
    header: 'Income per deal',
    render: (r) => money(r.TotalIncomePerDeal),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'ISOProfitPerDeal',
    header: 'ISO profit per deal',
    render: (r) => money(r.ISOProfitPerDeal),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'HouseProfitPerDeal',
    header: 'House profit per deal',
    render: (r) => money(r.HouseProfitPerDeal),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'HouseProfitPerISO',
    header: 'House profit per ISO',
    render: (r) => money(r.HouseProfitPerISO),
    align: 'right',
    nowrap: true,
  },
];

interface StatsTableProps {
  rows: readonly StatsRow[] | undefined;
  loading: boolean;
  failed: boolean;
  /** The month range control, shown above the rows. */
  range: ReactNode;
}

/** One row per partner; the rows come whole from the server and are paged here (15, 50 or 1000 a page). */
export function StatsTable({ rows, loading, failed, range }: StatsTableProps) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(STATS_PAGE_SIZES[0]);
  const shown = rows?.slice((page - 1) * pageSize, page * pageSize);
  return (
    <Paper withBorder radius="md">
      <Group justify="space-between" px="md" pt="md" pb="xs" gap="sm">
        <Title order={2} fz="md" fw={650}>
          Partner statistics
        </Title>
        {range}
      </Group>
      <DataTable
        label="Partner statistics"
        columns={COLUMNS}
        rows={shown}
        rowKey={(r) => r.groupname}
        loading={loading}
        error={failed ? 'The statistics could not be loaded.' : null}
        empty={{ title: 'No partners', description: 'Choose partners above, or widen the months.' }}
        footer={
          <Pager
            page={page}
            pageSize={pageSize}
            pageSizes={STATS_PAGE_SIZES}
            total={rows?.length}
            noun="partners"
            onPage={setPage}
            onPageSize={(size) => {
              setPageSize(size);
              setPage(1);
            }}
          />
        }
      />
      <Text fz="xs" c="dimmed" px="md" pb="sm">
        Per deal: over the partner’s approved merchants in the months shown.
      </Text>
    </Paper>
  );
}
