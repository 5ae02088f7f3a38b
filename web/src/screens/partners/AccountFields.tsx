import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Label-value pairs of an account, in a grid that reads left to right. */
export function AccountFields({ fields }: { fields: readonly [label: string, value: ReactNode][] }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="xs">
      {fields.map(([label, value]) => (
        <Stack key={label} gap={0} style={{ minWidth: 0 }}>
          <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
            {label}
          </Text>
          <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {value === null || value === undefined || value === '' ? '—' : value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
