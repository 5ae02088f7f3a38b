import {
  Badge,
  Box,
  Divider,
  EmptyState,
  Grid,
  Group,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { adminEndpoints, type OutboxRow } from '@paydesk/domain';
import { IconAlertTriangle, IconMail, IconMailOpened } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';
import { formatDateTime } from '../../components/format';
import { ScreenLoader } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { LinkifiedText } from './LinkifiedText';

const EMPTY_DESCRIPTION =
  'No e-mails yet. When SMTP_URL is not set, e-mails PayDesk sends (such as password resets) appear here.';

function newestFirst(rows: readonly OutboxRow[]): OutboxRow[] {
  return [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

function MessageList({
  mails,
  selectedId,
  onSelect,
}: {
  mails: OutboxRow[];
  selectedId: number | undefined;
  onSelect: (id: number) => void;
}) {
  return (
    <Paper withBorder radius="md">
      <ScrollArea.Autosize mah="calc(100vh - 220px)">
        <Stack gap={0} role="list" aria-label="E-mails">
          {mails.map((mail, index) => {
            const selected = mail.id === selectedId;
            return (
              <Box key={mail.id} role="listitem">
                {index > 0 && <Divider />}
                <UnstyledButton
                  w="100%"
                  px="md"
                  py="sm"
                  onClick={() => onSelect(mail.id)}
                  aria-current={selected ? 'true' : undefined}
                  bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                  style={{ display: 'block' }}
                >
                  <Text fz="sm" fw={600} truncate>
                    {mail.subject}
                  </Text>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fz="xs" c="dimmed" truncate>
                      To {mail.to}
                    </Text>
                    <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(mail.createdAt)}
                    </Text>
                  </Group>
                </UnstyledButton>
              </Box>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}

function MessageView({ mail }: { mail: OutboxRow }) {
  return (
    <Paper withBorder radius="md" p="lg" component="article" aria-label={mail.subject}>
      <Stack gap="xs">
        <Title order={2} fz={20}>
          {mail.subject}
        </Title>
        <Group gap="xs">
          <Badge variant="light" size="sm">
            To
          </Badge>
          <Text fz="sm">{mail.to}</Text>
          <Text fz="sm" c="dimmed">
            · {formatDateTime(mail.createdAt)}
          </Text>
        </Group>
      </Stack>
      <Divider my="md" />
      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="outbox-body">
        <LinkifiedText text={mail.text} />
      </Text>
    </Paper>
  );
}

function Outbox() {
  const outbox = useQuery({
    queryKey: adminKeys.outbox(),
    queryFn: () => call(adminEndpoints.outbox),
  });
  const [params, setParams] = useSearchParams();
  const mails = newestFirst(outbox.data ?? []);
  const requested = Number(params.get('id'));
  const selected = mails.find((mail) => mail.id === requested) ?? mails[0];

  let content: React.ReactNode;
  if (outbox.isLoading) {
    content = <ScreenLoader label="Loading e-mails…" />;
  } else if (outbox.error) {
    content = (
      <EmptyState
        mt={40}
        icon={<IconAlertTriangle size={26} />}
        variant="light"
        color="red"
        title="Could not load the outbox"
        description={errorMessage(outbox.error, 'Please try again in a moment.')}
      />
    );
  } else if (!selected) {
    content = (
      <Paper withBorder radius="md" py={48}>
        <EmptyState
          icon={<IconMailOpened size={26} />}
          withIndicatorBackground
          title="Outbox is empty"
          description={EMPTY_DESCRIPTION}
        />
      </Paper>
    );
  } else {
    content = (
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <MessageList
            mails={mails}
            selectedId={selected.id}
            onSelect={(id) => setParams({ id: String(id) })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          <MessageView mail={selected} />
        </Grid.Col>
      </Grid>
    );
  }

  return (
    <>
      <PageHeader
        title="Outbox"
        description="E-mails PayDesk sent while no SMTP server is configured, newest first."
        actions={
          mails.length > 0 && (
            <Group gap={6}>
              <IconMail size={16} />
              <Text fz="sm" c="dimmed">
                {mails.length} {mails.length === 1 ? 'e-mail' : 'e-mails'}
              </Text>
            </Group>
          )
        }
      />
      {content}
    </>
  );
}

export default function OutboxScreen() {
  return <Outbox />;
}
