import { Alert, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { errorMessage } from '../../app/api';
import { JobStateBadge } from './JobStateBadge';
import { useJobStatus } from './useJobStatus';

interface JobProgressProps {
  /** The job to follow, as the call that queued it answered; null shows nothing. */
  id: string | null;
}

/**
 * Follows one background job: a progress bar with its percent and line of text while it is queued or
 * running, then what it reported when done, or its error.
 */
export function JobProgress({ id }: JobProgressProps) {
  const status = useJobStatus(id);
  if (id === null) return null;
  if (status.error) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title="The job’s progress could not be read">
        {errorMessage(status.error, 'Please try again in a moment.')}
      </Alert>
    );
  }
  const job = status.data;
  if (!job) {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text fz="sm" c="dimmed">
          Looking up the job…
        </Text>
      </Group>
    );
  }
  if (job.state === 'completed') {
    return (
      <Alert color="teal" icon={<IconCircleCheck size={18} />} title={`${job.title}: done`}>
        {job.result ?? 'Finished.'}
      </Alert>
    );
  }
  if (job.state === 'failed' || job.state === 'cancelled') {
    return (
      <Alert
        color={job.state === 'failed' ? 'red' : 'gray'}
        icon={<IconAlertTriangle size={18} />}
        title={`${job.title}: ${job.state === 'failed' ? 'failed' : 'cancelled'}`}
      >
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {job.error ??
            (job.state === 'failed' ? 'The job stopped without a message.' : 'The job was cancelled.')}
        </Text>
      </Alert>
    );
  }
  const percent = job.state === 'active' ? (job.percent ?? 0) : 0;
  const line =
    job.state === 'created'
      ? 'Waiting for its turn…'
      : job.state === 'retry'
        ? `Failed, will try again${job.error ? `: ${job.error}` : ''}`
        : (job.message ?? 'Started');
  return (
    <Stack gap={6} role="status" aria-live="polite" aria-label={`${job.title} progress`}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <JobStateBadge state={job.state} />
          <Text fz="sm" truncate>
            {line}
          </Text>
        </Group>
        <Text fz="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
          {percent}%
        </Text>
      </Group>
      <Progress
        value={percent}
        animated={job.state === 'active'}
        striped={job.state !== 'active'}
        color={job.state === 'retry' ? 'orange' : undefined}
        aria-label={`${job.title}: ${percent}%`}
      />
    </Stack>
  );
}
