import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { CAPABILITY_LABELS, DEPARTMENT_LABELS } from '@paydesk/domain';
import { IconBuildingStore, IconChartBar, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export default function SalesScreen() {
  const user = useSessionUser();

  return (
    <>
      <PageHeader title="Sales" description="Your PayDesk landing page." />
      <Card withBorder radius="lg" padding="xl" maw={880}>
        <Group align="flex-start" wrap="nowrap" gap="lg">
          <ThemeIcon size={52} radius="md" variant="light">
            <IconChartBar size={28} />
          </ThemeIcon>
          <Stack gap="xs">
            <Title order={2} fz={22}>
              {greeting(new Date().getHours())}, {user.email}
            </Title>
            <Text c="dimmed">
              The sales dashboard (today’s submissions and approvals, month-to-date figures and goals) arrives
              in a later release of PayDesk. Until then this page confirms who you are signed in as.
            </Text>
          </Stack>
        </Group>

        <SimpleGrid cols={2} mt="xl" spacing="md">
          <Card withBorder radius="md" padding="md" bg="gray.0">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              Department
            </Text>
            <Text fw={600} mt={4}>
              {DEPARTMENT_LABELS[user.department]}
            </Text>
          </Card>
          <Card withBorder radius="md" padding="md" bg="gray.0">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              ISO
            </Text>
            <Group gap={6} mt={4} wrap="nowrap">
              <IconBuildingStore size={16} />
              <Text fw={600}>{user.iso ? user.iso.name : 'Not bound to an ISO (internal staff)'}</Text>
            </Group>
          </Card>
        </SimpleGrid>
        <Card withBorder radius="md" padding="md" bg="gray.0" mt="md">
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
            Extra permissions
          </Text>
          {user.capabilities.length === 0 ? (
            <Text fw={600} mt={4}>
              None beyond your department
            </Text>
          ) : (
            <Group gap={6} mt={8}>
              {user.capabilities.map((capability) => (
                <Badge key={capability} variant="light">
                  {CAPABILITY_LABELS[capability].label}
                </Badge>
              ))}
            </Group>
          )}
        </Card>

        <Group mt="xl" gap="sm">
          <Button component={Link} to="/changePassword" variant="light" leftSection={<IconKey size={16} />}>
            Change your password
          </Button>
        </Group>
      </Card>
    </>
  );
}
