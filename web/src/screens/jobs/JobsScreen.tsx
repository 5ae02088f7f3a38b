import { Group, Progress, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type JobState, jobEndpoints, jobsTable } from '@paydesk/domain';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { adminKeys, jobKeys } from '../../app/queryKeys';
import {
  defColumn,
  type Row,
  ServerTable,
  type ServerTableDefinition,
  useServerTable,
} from '../../components/DataTable';
import { TableActions } from '../../components/DataTable/TableActions';
import { ExportModal } from '../../components/ExportModal';
import { formatDateTime } from '../../components/format';
import { JobStateBadge, parseProgress, tablePollInterval } from '../../components/JobProgress';
import { PageHeader } from '../../components/PageHeader';

const JOBS: ServerTableDefinition<typeof jobEndpoints.table.extra> = {
  def: jobsTable,
  endpoints: jobEndpoints.table,
  keys: { page: jobKeys.table, preview: jobKeys.preview },
};

/** A row as the jobs table sends it (domain/contracts/jobs.ts). */
interface JobRow {
  id: string;
  name: string;
  state: JobState;
  created: string;
  progress: string | null;
  error: string | null;
}
const job = (row: Row) => row as unknown as JobRow;

function ProgressCell({ row }: { row: JobRow }) {
  const running = parseProgress(row.state, row.progress);
  if (!running) {
    return (
      <Text fz="sm" c="dimmed" truncate maw="16rem" title={row.progress ?? undefined}>
        {row.progress ?? '—'}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" miw="14rem" aria-label={`${running.percent}% — ${running.message}`}>
      <Progress value={running.percent} w={80} size="sm" animated aria-hidden />
      <Text fz="xs" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {running.percent}%
      </Text>
      <Text fz="xs" c="dimmed" truncate maw="12rem" title={running.message}>
        {running.message}
      </Text>
    </Group>
  );
}

/** The error on one line in red; the whole text on hover or focus. */
function ErrorCell({ row }: { row: JobRow }) {
  if (!row.error) return '—';
  return (
    <Tooltip label={row.error} multiline w={420} withinPortal openDelay={150}>
      <Text fz="sm" c="red.8" truncate maw="22rem" tabIndex={0} data-testid="job-error">
        {row.error}
      </Text>
    </Tooltip>
  );
}

function Jobs() {
  const queryClient = useQueryClient();
  const jobs = useServerTable(JOBS, {
    extra: {},
    loadError: 'The jobs could not be loaded.',
    refreshWhile: (page) => tablePollInterval(page?.rows),
  });
  const { state } = jobs.controls;
  const [exporting, setExporting] = useState(false);

  const rerun = useMutation({
    mutationFn: (id: string) => call(jobEndpoints.rerun, { id }),
    onSuccess: (answer) => notifications.show({ color: 'teal', message: answer.message }),
    onError: (failure) =>
      notifications.show({
        color: 'red',
        message: errorMessage(failure, 'The job could not be queued again.'),
      }),
    // The new run shows on the table, and the audit log records who asked for it.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: jobKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit() }),
      ]),
  });

  return (
    <>
      <PageHeader
        title="Jobs"
        description="Background work, newest first: e-mails delivered, imports and scheduled runs. Filter by job or state; a failed run can be run again."
      />
      <ServerTable
        {...jobs.table}
        label="Jobs"
        noun="runs"
        searchPlaceholder="Search by job id"
        empty={{
          filtered: 'No runs match these filters',
          unfiltered: 'No background jobs have run yet',
          unfilteredHint: 'Jobs appear here when e-mails are delivered, imports run or schedules fire.',
        }}
        cells={{
          state: (row) => <JobStateBadge state={job(row).state} />,
          progress: (row) => <ProgressCell row={job(row)} />,
          error: (row) => <ErrorCell row={job(row)} />,
        }}
        rowLabel={(row) => `${job(row).name} queued ${formatDateTime(job(row).created)}`}
        rowActions={[
          {
            label: 'Run again',
            icon: <IconRefresh size={14} />,
            appliesTo: (row) => job(row).state === 'failed',
            disabled: () => rerun.isPending,
            onClick: (row) => rerun.mutate(job(row).id),
          },
        ]}
        actions={<TableActions onExport={() => setExporting(true)} />}
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export the jobs to XLSX"
        subject={`${jobs.narrowed ? 'The runs matching the filters and search in force' : 'Every run kept (two weeks)'}, the ${state.columns.length} visible columns, in the order shown. Times are in UTC.`}
        columns={jobs.visibleColumns.map(defColumn)}
        previewKey={jobs.previewKey}
        loadPreview={jobs.loadPreview}
        download={{ ...jobs.exportDownload, fallbackName: 'Jobs.xlsx' }}
      />
    </>
  );
}

export default function JobsScreen() {
  return <Jobs />;
}
