import { Button, Code, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../components/format';
import { JobProgress, useJobStatus } from '../../components/JobProgress';

export interface JobSummary {
  id: string;
  /** The job's title, as the table shows it. */
  name: string;
  summary: string;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Seconds from one time to another (or to now), to the tenth. */
function seconds(from: string | null, to: string | null): string {
  if (!from) return '—';
  const ms = (to ? Date.parse(to) : Date.now()) - Date.parse(from);
  return Number.isFinite(ms) ? `${(Math.max(0, ms) / 1000).toFixed(1)} s` : '—';
}

/** One run in full, followed live while it is queued or running: its progress, times, tries, payload and error. */
export function JobDetailModal({
  run,
  onClose,
  onRerun,
  rerunning,
}: {
  run: JobSummary | null;
  onClose: () => void;
  onRerun: (id: string) => void;
  rerunning: boolean;
}) {
  const status = useJobStatus(run?.id ?? null);
  const job = status.data;
  return (
    <Modal opened={run !== null} onClose={onClose} title={run?.name ?? ''} size="lg">
      {run && (
        <Stack gap="md">
          <JobProgress id={run.id} />
          {job && (
            <SimpleGrid cols={3} spacing="md" verticalSpacing="sm">
              <Field label="Queued at">{formatDateTime(job.createdAt)}</Field>
              <Field label="Started">{formatDateTime(job.startedAt)}</Field>
              <Field label="Duration">
                {job.completedAt || job.state === 'active' ? seconds(job.startedAt, job.completedAt) : '—'}
              </Field>
              <Field label="Attempts">{job.attempts}</Field>
              <Field label="Payload">{run.summary || '—'}</Field>
              <Field label="Job id">
                <Code fz="xs">{run.id}</Code>
              </Field>
            </SimpleGrid>
          )}
          {job?.state === 'failed' && (
            <Group justify="flex-end">
              <Button
                leftSection={<IconRefresh size={16} />}
                loading={rerunning}
                onClick={() => onRerun(run.id)}
              >
                Run again
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
