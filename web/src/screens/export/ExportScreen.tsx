import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  hasPermission,
  monthLabel,
  processingEndpoints,
  processingPaths,
  type ReportQuarter,
  reportQuarters,
  type SubscriptionFrequency,
  type SubscriptionRow,
} from '@paydesk/domain';
import { IconCalendarRepeat, IconMailForward } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { processingKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import { FormAlert } from '../../components/FormAlert';
import { formatDateTime } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';

const quarterKey = (q: Pick<ReportQuarter, 'yr' | 'qr'>) => `${q.yr}-Q${q.qr}`;
/** 'October' for a report through 2026-10-01. */
const throughMonth = (q: ReportQuarter) => monthLabel(q.through).split(' ')[0];

/**
 * The seven report buttons (spec document 2 §2.3, §4): each asks once per page visit for its quarter's report
 * to be e-mailed to the signed-in user, then stays disabled in another colour. As the spec says, the answer is
 * not shown (only logged); the page says once, up front, where the report goes.
 */
function ReportButtons({ email }: { email: string }) {
  const quarters = useMemo(() => reportQuarters(new Date()), []);
  const [requested, setRequested] = useState<ReadonlySet<string>>(new Set());
  const request = (q: ReportQuarter) => {
    setRequested((previous) => new Set(previous).add(quarterKey(q)));
    call(processingEndpoints.email, { rec: email, yr: q.yr, qr: q.qr }).then(
      (answer) => console.info(`${processingPaths.email}:`, answer),
      (error) => {
        console.error(`${processingPaths.email} failed:`, error);
        // The spec shows no result; a refusal is still said, or the user waits for a mail that never comes.
        notifications.show({
          color: 'red',
          title: `The ${q.label} report was not requested`,
          message: `${errorMessage(error, 'The server could not be reached.')} Reload the page to try again.`,
        });
      },
    );
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
      {quarters.map((q, i) => {
        const done = requested.has(quarterKey(q));
        return (
          <Button
            key={quarterKey(q)}
            onClick={() => request(q)}
            disabled={done}
            variant={i === 0 ? 'filled' : 'light'}
            color={i === 0 ? 'blue' : 'indigo'}
            h={64}
            leftSection={<IconMailForward size={18} />}
            data-testid={`report-${quarterKey(q)}`}
            aria-label={`E-mail the report for ${q.yr} Q${q.qr}${q.complete ? '' : ` through ${throughMonth(q)}`}`}
          >
            <Stack gap={0} align="flex-start">
              <Text fw={700} fz="md" inherit>
                {q.yr} Q{q.qr}
              </Text>
              <Text fz="xs" inherit fw={400}>
                {done
                  ? 'Requested: arrives by e-mail'
                  : q.complete
                    ? 'Whole quarter'
                    : `Quarter to month, through ${throughMonth(q)}`}
              </Text>
            </Stack>
          </Button>
        );
      })}
    </SimpleGrid>
  );
}

const FREQUENCY_LABELS: Record<SubscriptionFrequency, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
};
const FREQUENCY_NOTES: Record<SubscriptionFrequency, string> = {
  monthly: 'on the first business day of every month',
  quarterly: 'on the first business day of January, April, July and October',
};

/** PayDesk's addition: the report sent by itself on a schedule, to the signed-in user. */
function Subscriptions() {
  const queryClient = useQueryClient();
  const [frequency, setFrequency] = useState<SubscriptionFrequency>('monthly');
  const list = useQuery({
    queryKey: processingKeys.subscriptions(),
    queryFn: () => call(processingEndpoints.subscriptions),
  });
  const held = new Set((list.data ?? []).map((s) => s.frequency));

  const subscribe = useMutation({
    mutationFn: () => call(processingEndpoints.subscribe, { frequency }),
    onSuccess: (row) =>
      notifications.show({
        color: 'teal',
        message: `Subscribed: the report comes ${FREQUENCY_NOTES[row.frequency]}.`,
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'The subscription could not be saved.'),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingKeys.subscriptions() }),
  });
  const cancel = useMutation({
    mutationFn: (row: SubscriptionRow) => call(processingEndpoints.cancelSubscription, { id: row.id }),
    onSuccess: (answer) => notifications.show({ color: 'teal', message: answer.message }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'The subscription could not be cancelled.'),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingKeys.subscriptions() }),
  });

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label="Scheduled reports">
      <Group gap="xs" mb={4}>
        <IconCalendarRepeat size={18} />
        <Title order={2} fz="md">
          Scheduled reports
        </Title>
      </Group>
      <Text fz="sm" c="dimmed" mb="md">
        Receive the latest report by itself: the first button’s report (the quarter holding last month),
        e-mailed to you on the first business day.
      </Text>
      <Group gap="sm" mb="md" align="center">
        <SegmentedControl
          aria-label="Frequency"
          value={frequency}
          onChange={(v) => setFrequency(v as SubscriptionFrequency)}
          data={[
            { value: 'monthly', label: 'Monthly' },
            { value: 'quarterly', label: 'Quarterly' },
          ]}
        />
        <Button
          onClick={() => subscribe.mutate()}
          loading={subscribe.isPending}
          disabled={held.has(frequency) || list.isPending}
        >
          Subscribe
        </Button>
        <Text fz="xs" c="dimmed">
          {held.has(frequency)
            ? `You already receive it ${frequency === 'monthly' ? 'monthly' : 'quarterly'}.`
            : `Sent ${FREQUENCY_NOTES[frequency]}.`}
        </Text>
      </Group>
      {list.isPending ? (
        <Skeleton height={60} />
      ) : list.isError ? (
        <FormAlert kind="error">
          {errorMessage(list.error, 'Your subscriptions could not be loaded.')}
        </FormAlert>
      ) : list.data.length === 0 ? (
        <Text fz="sm" c="dimmed" data-testid="subscriptions-empty">
          You have no scheduled reports.
        </Text>
      ) : (
        <Table aria-label="Your scheduled reports" withTableBorder verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Frequency</Table.Th>
              <Table.Th>Subscribed</Table.Th>
              <Table.Th>Last sent</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Badge variant="light" color={row.frequency === 'monthly' ? 'blue' : 'grape'}>
                    {FREQUENCY_LABELS[row.frequency]}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDateTime(row.created)}</Table.Td>
                <Table.Td>{row.lastSent ? formatDateTime(row.lastSent) : 'Not yet'}</Table.Td>
                <Table.Td ta="right">
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    onClick={() => cancel.mutate(row)}
                    loading={cancel.isPending && cancel.variables?.id === row.id}
                    aria-label={`Cancel the ${row.frequency} report`}
                  >
                    Cancel
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** Spec document 2 §2.3 'How to Export', with PayDesk's scheduled reports below the seven buttons. */
export default function ExportScreen() {
  const user = useSessionUser();
  return (
    <>
      <PageHeader
        title="How to Export"
        description="Processing reports by e-mail: the dashboard as a PDF and its figures as an Excel workbook."
      />
      <Stack gap="md">
        <Card withBorder radius="md" padding="md" component="section" aria-label="Quarter reports">
          <Title order={2} fz="md" mb={4}>
            Quarter reports
          </Title>
          <Text fz="sm" c="dimmed" mb="md" data-testid="report-recipient">
            Choose a quarter. Its report is e-mailed to <b>{user.email}</b>
            {user.iso ? `, with the figures of ${user.iso.name}’s merchants only` : ''}; each report can be
            asked for once per visit of this page.{' '}
            {hasPermission(user, 'manage_jobs') && (
              <>
                Follow the requests in{' '}
                <Anchor component={Link} to="/jobs?f.name=processing.report" fz="sm">
                  Jobs
                </Anchor>
                .
              </>
            )}
          </Text>
          <ReportButtons email={user.email} />
        </Card>
        <Subscriptions />
      </Stack>
    </>
  );
}
