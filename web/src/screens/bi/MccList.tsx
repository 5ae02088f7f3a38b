import { Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { MCC_LIST_FIRST, type MccRow, mccLabel } from '@paydesk/domain';
import { useState } from 'react';
import { mccShares } from './biModel';

/** The ISO's merchants by MCC, as shares: the first six, then Show more (spec 3 §9). */
export function MccList({ rows }: { rows: readonly MccRow[] }) {
  const [all, setAll] = useState(false);
  const shares = mccShares(rows);
  const shown = all ? shares : shares.slice(0, MCC_LIST_FIRST);
  if (shares.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        No merchants with an MCC.
      </Text>
    );
  return (
    <Stack gap={10}>
      <Stack gap={8} data-testid="mcc-list">
        {shown.map((row) => {
          const label = mccLabel(row.mcc_code, row.mcc_desc);
          return (
            <div key={row.mcc_code} data-testid="mcc-row">
              <Group justify="space-between" gap="xs" wrap="nowrap" mb={2}>
                <Tooltip label={`${row.mcc_code} ${row.mcc_desc}`} disabled={!label.cut} withArrow>
                  <Text fz="sm" truncate="end" style={{ minWidth: 0 }}>
                    {label.text}
                  </Text>
                </Tooltip>
                <Text fz="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums', flex: 'none' }}>
                  {row.percent.toFixed(1)}%
                  <Text span fz="xs" c="dimmed" fw={400}>
                    {' '}
                    ({row.mcc_count.toLocaleString('en-US')})
                  </Text>
                </Text>
              </Group>
              <Progress value={row.percent} size="sm" color="indigo" aria-hidden />
            </div>
          );
        })}
      </Stack>
      {shares.length > MCC_LIST_FIRST && (
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setAll((a) => !a)}
          style={{ alignSelf: 'start' }}
        >
          {all ? 'Show less' : `Show more (${shares.length - MCC_LIST_FIRST})`}
        </Button>
      )}
    </Stack>
  );
}
