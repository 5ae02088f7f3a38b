import { Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCloudDownload } from '@tabler/icons-react';
import type { CrmImport } from './useCrmImport';

/** Import from Salesforce (spec §2.4, §4); shown to everyone, disabled while an import runs. */
export function CrmImportButton({ crm }: { crm: CrmImport }) {
  return (
    <Button
      variant="light"
      leftSection={<IconCloudDownload size={16} />}
      onClick={crm.start}
      disabled={crm.phase === 'started'}
    >
      Import from Salesforce
    </Button>
  );
}

/** The import's status text: progress while it runs, then the spec's messages (§4, §8). */
export function CrmImportText({ crm }: { crm: CrmImport }) {
  const { phase, job } = crm;
  if (phase === 'started') {
    const percent = job?.percent ?? null;
    return (
      <Stack gap={4} w={260} role="status" aria-live="polite" aria-label="Salesforce import">
        <Group gap={6} justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Loader size={14} />
            <Text fz="sm" fw={600}>
              Importing...
            </Text>
            {job?.message && (
              <Text fz="xs" c="dimmed" truncate>
                {job.message}
              </Text>
            )}
          </Group>
          {percent !== null && (
            <Text fz="xs" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {percent}%
            </Text>
          )}
        </Group>
        <Progress
          value={percent ?? 0}
          animated
          size="sm"
          aria-label={`Salesforce import: ${percent ?? 0}%`}
        />
      </Stack>
    );
  }
  if (phase === 'finished') {
    return (
      <Group gap={6} wrap="nowrap" role="status">
        <IconCircleCheck size={18} color="var(--mantine-color-teal-7)" />
        <Text fz="sm" c="teal.8" title={job?.result ?? undefined}>
          Partners successfully imported from the Salesforce
        </Text>
      </Group>
    );
  }
  if (phase === 'stopped') {
    return (
      <Group gap={6} wrap="nowrap" role="alert" maw={420}>
        <IconAlertTriangle size={18} color="var(--mantine-color-red-7)" style={{ flex: 'none' }} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fz="sm" c="red.8">
            Something went wrong! Try again
          </Text>
          {job?.error && (
            <Text fz="xs" c="dimmed" truncate title={job.error}>
              {job.error}
            </Text>
          )}
        </Stack>
      </Group>
    );
  }
  return null;
}
