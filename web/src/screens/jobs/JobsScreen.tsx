import { Anchor, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
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
import { JobDetailModal, type JobSummary } from './JobDetailModal';

const JOBS: ServerTableDefinition<typeof jobEndpoints.table.extra> = {
  def: jobsTable,
  endpoints: jobEndpoints.table,
  keys: { page: jobKeys.table, preview: jobKeys.preview },
};

/** A row as the jobs table sends it (jobsTable in domain/contracts/jobs.ts). */
interface JobRow {
  id: string;
  name: string;
  state: JobState;
  created: string;
  progress: string | null;
  summary: string;
  attempts: number;
  error: string | null;
}
const job = (row: Row) => row as unknown as JobRow;
/** Names a run for assistive technology (and tests): "Deliver an e-mail queued 2026-11-22 15:12". */
const runLabel = (row: Row) => `${job(row).name} queued ${formatDateTime(job(row).created)}`;

/**
 * Text in a cell that may take two lines (the table keeps its other cells on one), so the columns fit a
 * laptop screen; the whole of it on hover or focus.
 */
function WrappingText({ text, color, testId }: { text: string; color?: string; testId?: string }) {
  return (
    <Tooltip label={text} multiline maw={420} withinPortal openDelay={300}>
      <Text
        fz="sm"
        c={color}
        lineClamp={2}
        miw="10rem"
        maw="22rem"
        tabIndex={0}
        data-testid={testId}
        style={{ whiteSpace: 'normal', wordBreak: 'break-word' }}
      >
        {text}
      </Text>
    </Tooltip>
  );
}

/**
 * How far a run is: a bar and its line of text while it runs, the error (in red) of a failed run or of one
 * waiting to retry, otherwise the last line it reported.
 */
function ProgressCell({ row }: { row: JobRow }) {
  const running = parseProgress(row.state, row.progress);
  if (running) {
    return (
      <Stack gap={2} w="12rem" aria-label={`${running.percent}% — ${running.message}`}>
        <Group gap="xs" wrap="nowrap">
          <Progress value={running.percent} size="sm" animated style={{ flex: 1 }} aria-hidden />
          <Text fz="xs" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {running.percent}%
          </Text>
        </Group>
        <Text fz="xs" c="dimmed" truncate title={running.message}>
          {running.message}
        </Text>
      </Stack>
    );
  }
  if (row.error) return <WrappingText text={row.error} color="red.8" testId="job-error" />;
  if (!row.progress) return '—';
  return <WrappingText text={row.progress} color="dimmed" />;
}

/** The state, and how many tries a run has taken once it has needed more than one. */
function StateCell({ row }: { row: JobRow }) {
  if (row.attempts <= 1) return <JobStateBadge state={row.state} />;
  return (
    <Stack gap={2} align="flex-start">
      <JobStateBadge state={row.state} />
      <Text fz="xs" c="dimmed">
        {row.attempts} tries
      </Text>
    </Stack>
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
  const [showing, setShowing] = useState<JobSummary | null>(null);

  const rerun = useMutation({
    mutationFn: (id: string) => call(jobEndpoints.rerun, { id }),
    onSuccess: (answer) => {
      notifications.show({ color: 'teal', message: answer.message });
      setShowing(null);
    },
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
        description="Background work, newest first: e-mails delivered, imports and scheduled runs. Open a run for its details; a failed run can be run again."
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
          name: (row) => (
            <Anchor
              component="button"
              type="button"
              fz="sm"
              aria-label={`Details of ${runLabel(row)}`}
              onClick={() => setShowing(job(row))}
            >
              {job(row).name}
            </Anchor>
          ),
          state: (row) => <StateCell row={job(row)} />,
          progress: (row) => <ProgressCell row={job(row)} />,
          summary: (row) => (
            <Text fz="sm" truncate maw="14rem" title={job(row).summary}>
              {job(row).summary || '—'}
            </Text>
          ),
          error: (row) => (job(row).error ? <WrappingText text={job(row).error ?? ''} color="red.8" /> : '—'),
        }}
        rowLabel={runLabel}
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
      <JobDetailModal
        run={showing}
        onClose={() => setShowing(null)}
        onRerun={(id) => rerun.mutate(id)}
        rerunning={rerun.isPending}
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
