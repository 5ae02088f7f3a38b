import { Badge, Card, Center, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { LIVE_REFRESH_MS, monthLabel, monthStart, salesEndpoints } from '@paydesk/domain';
import { IconTrophy } from '@tabler/icons-react';
import { useMemo } from 'react';
import { barOption, EChart } from '../../components/charts';
import { PageHeader } from '../../components/PageHeader';
import { useSalesCall } from '../sales/useSalesDashboard';
import { chartHeight } from './chartHeight';

type Leaderboard = typeof salesEndpoints.leaderboardUW | typeof salesEndpoints.leaderboardRM;

function Board({ title, endpoint, color }: { title: string; endpoint: Leaderboard; color: string }) {
  const answer = useSalesCall(endpoint, null, { live: true });
  const rows = answer.data;
  const option = useMemo(
    () =>
      rows
        ? barOption({
            categories: rows.map((r) => r.Name),
            bars: [{ name: 'Approved', values: rows.map((r) => r.Approved), color, labels: true }],
            horizontal: true,
            legend: false,
          })
        : undefined,
    [rows, color],
  );
  const total = rows?.reduce((n, r) => n + r.Approved, 0) ?? 0;
  const top = Math.max(0, ...(rows ?? []).map((r) => r.Approved));
  const leaders = top > 0 ? (rows ?? []).filter((r) => r.Approved === top) : [];

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Stack gap={2} mb="sm">
        <Title order={2} fz="md">
          {title}
        </Title>
        {rows && rows.length > 0 && (
          <Group gap="xs">
            <Text fz="xs" c="dimmed">
              {total.toLocaleString('en-US')} approvals by {rows.length}{' '}
              {rows.length === 1 ? 'person' : 'people'}
            </Text>
            {leaders.length > 0 && (
              <Badge
                leftSection={<IconTrophy size={12} />}
                color="yellow"
                variant="light"
                data-testid="leader"
              >
                {leaders.map((r) => r.Name).join(', ')}: {top}
              </Badge>
            )}
          </Group>
        )}
      </Stack>
      {answer.loading && (
        <Center h={240} role="status" aria-label={`Loading ${title}`}>
          <Loader />
        </Center>
      )}
      {answer.failed && !rows && (
        <Text c="dimmed" fz="sm" ta="center" py="xl" role="status">
          The leaderboard could not be loaded; it will be asked for again in a minute.
        </Text>
      )}
      {rows && rows.length === 0 && (
        <Text c="dimmed" fz="sm" ta="center" py="xl">
          Nobody has an approval yet this month. The board fills in as applications are approved.
        </Text>
      )}
      {option && rows && rows.length > 0 && (
        <EChart
          option={option}
          height={chartHeight(rows.length)}
          label={`${title}: ${rows.map((r) => `${r.Name} ${r.Approved}`).join(', ')}`}
        />
      )}
    </Card>
  );
}

/** Spec document 2 §2.2: this month's approvals by underwriter and by relationship manager, refreshed every minute. */
export default function LeaderboardScreen() {
  const month = monthLabel(monthStart(new Date()));
  return (
    <>
      <PageHeader
        title="Leaderboard"
        description={`Approvals in ${month} so far, refreshed every ${LIVE_REFRESH_MS / 1000} seconds.`}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Board
          title={`${month} Approvals by Underwriters`}
          endpoint={salesEndpoints.leaderboardUW}
          color="#4263eb"
        />
        <Board
          title={`${month} Approvals by Relationship Manager`}
          endpoint={salesEndpoints.leaderboardRM}
          color="#0ca678"
        />
      </SimpleGrid>
    </>
  );
}
