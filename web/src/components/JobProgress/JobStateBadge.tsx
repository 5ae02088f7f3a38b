import { Badge } from '@mantine/core';
import { JOB_STATE_LABELS, type JobState } from '@paydesk/domain';
import { STATE_COLORS } from './jobState';

export function JobStateBadge({ state }: { state: JobState }) {
  return (
    <Badge size="sm" variant="light" color={STATE_COLORS[state] ?? 'gray'} miw="max-content">
      {JOB_STATE_LABELS[state] ?? state}
    </Badge>
  );
}
