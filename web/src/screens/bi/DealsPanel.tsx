import { Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatCount } from '../../components/format';

export interface DealsInfo {
  approved_deals: number;
  open_deals: number;
  closed_deals: number;
  first_deal: string | null;
  last_deal: string | null;
  average_days_bw_deals: string | null;
  open_age: readonly number[];
  closed_age: readonly number[];
}

function Figure({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: number;
  color?: string;
  testId: string;
}) {
  return (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={750} c={color} data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatCount(value)}
      </Text>
    </Stack>
  );
}

/** Total, open and closed deals, and how old the open and the closed ones are (spec 3 §9's age buckets). */
export function DealsPanel({ info, buckets }: { info: DealsInfo; buckets: readonly string[] }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={3}>
        <Figure label="Total" value={info.approved_deals} testId="deals-total" />
        <Figure label="Open" value={info.open_deals} color="teal.8" testId="deals-open" />
        <Figure label="Closed" value={info.closed_deals} color="red.8" testId="deals-closed" />
      </SimpleGrid>
      <Table withRowBorders={false} verticalSpacing={4} fz="sm" aria-label="Deals by age">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Age</Table.Th>
            <Table.Th ta="right">Open</Table.Th>
            <Table.Th ta="right">Closed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {buckets.map((bucket, i) => (
            <Table.Tr key={bucket}>
              <Table.Td>{bucket}</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatCount(info.open_age[i] ?? 0)}
              </Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatCount(info.closed_age[i] ?? 0)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="lg">
        <Text fz="xs" c="dimmed">
          First deal <b>{info.first_deal ?? '—'}</b>
        </Text>
        <Text fz="xs" c="dimmed">
          Last deal <b>{info.last_deal ?? '—'}</b>
        </Text>
        <Text fz="xs" c="dimmed">
          Every <b>{info.average_days_bw_deals ?? '—'}</b> days on average
        </Text>
      </Group>
    </Stack>
  );
}
