import { Button, Group, Text } from '@mantine/core';
import { type ActivityLogEntry, BONUS_DEFAULTS, BONUS_LOG_TYPE, bonusEndpoints } from '@paydesk/domain';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { ListTable } from './ListTable';

const COLUMNS: Column<ActivityLogEntry>[] = [
  { key: 'date_time', header: 'Date', render: (e) => formatDateTime(e.date_time), nowrap: true, width: 160 },
  {
    key: 'user',
    header: 'User',
    render: (e) => e.user ?? 'PayDesk (scheduled run)',
    nowrap: true,
    width: 240,
  },
  { key: 'log_description', header: 'Description', render: (e) => e.log_description, nowrap: false },
];

/** Activity Logs (spec document 3 §2.3, §9): the newest 100 entries of type BNS, runs and manual changes. */
export function ActivityLogTab() {
  const entries = useQuery({
    queryKey: bonusKeys.logs(),
    queryFn: () =>
      call(bonusEndpoints.getActivityLog, {
        log_type: BONUS_LOG_TYPE,
        row_count: BONUS_DEFAULTS.activityLogRows,
        page_num: 0,
      }),
  });
  return (
    <>
      <Group justify="space-between" mb="xs">
        <Text fz="sm" c="dimmed">
          The newest {BONUS_DEFAULTS.activityLogRows} entries: every bonus run and every change to a bonus, a
          clawback or a specification.
        </Text>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} />}
          onClick={() => entries.refetch()}
          loading={entries.isFetching}
        >
          Refresh
        </Button>
      </Group>
      <ListTable<ActivityLogEntry>
        label="Activity log"
        noun="entries"
        columns={COLUMNS}
        rows={entries.data}
        loading={entries.isFetching}
        error={entries.error ? errorMessage(entries.error, 'The activity log could not be loaded.') : null}
        empty={{ title: 'No activity yet', description: 'Runs and changes appear here as they happen.' }}
        rowKey={(e, index) => `${index}-${e.date_time}`}
        search={{ placeholder: 'Search user or description', fields: (e) => [e.user, e.log_description] }}
      />
    </>
  );
}
