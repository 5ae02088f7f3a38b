import { Alert, Anchor, Badge, Divider, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import {
  adminEndpoints,
  adminPaths,
  OUTBOX_STATE_DESCRIPTIONS,
  OUTBOX_STATE_LABELS,
  type OutboxMessage,
  type OutboxState,
  outboxTable,
} from '@paydesk/domain';
import { IconAlertTriangle, IconPaperclip } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';
import {
  defColumn,
  type Row,
  ServerTable,
  type ServerTableDefinition,
  useServerTable,
} from '../../components/DataTable';
import { TableActions } from '../../components/DataTable/TableActions';
import { ExportModal } from '../../components/ExportModal';
import { formatCount, formatDateTime } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { LinkifiedText } from './LinkifiedText';

const OUTBOX: ServerTableDefinition<typeof adminEndpoints.outboxTable.extra> = {
  def: outboxTable,
  endpoints: adminEndpoints.outboxTable,
  keys: { page: adminKeys.outboxTable, preview: adminKeys.outboxPreview },
};

const STATE_COLORS: Record<OutboxState, string> = {
  pending: 'yellow',
  sent: 'green',
  failed: 'red',
  local: 'gray',
};

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text fz="sm" c="dimmed" w={90} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ minWidth: 0, wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Group>
  );
}

function MessageView({ mail }: { mail: OutboxMessage }) {
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Fact label="To">{mail.to}</Fact>
        <Fact label="Created">{formatDateTime(mail.createdAt)}</Fact>
        <Fact label="State">
          <Group gap="xs">
            <Badge variant="light" color={STATE_COLORS[mail.state]}>
              {OUTBOX_STATE_LABELS[mail.state]}
            </Badge>
            {mail.state === 'pending' && <Loader size={14} aria-label="Delivering" />}
          </Group>
          <Text fz="xs" c="dimmed" mt={4}>
            {OUTBOX_STATE_DESCRIPTIONS[mail.state]}
          </Text>
        </Fact>
        {mail.attempts > 0 && <Fact label="Attempts">{formatCount(mail.attempts)}</Fact>}
        {mail.sentAt && <Fact label="Sent at">{formatDateTime(mail.sentAt)}</Fact>}
      </Stack>
      {mail.error && (
        <Alert
          color={mail.state === 'failed' ? 'red' : 'yellow'}
          icon={<IconAlertTriangle size={18} />}
          title={mail.state === 'failed' ? 'Delivery failed' : 'Last try failed; it will be tried again'}
        >
          <Text fz="sm" style={{ wordBreak: 'break-word' }}>
            {mail.error}
          </Text>
        </Alert>
      )}
      {mail.attachments.length > 0 && (
        <Stack gap={4} role="list" aria-label="Attachments">
          {mail.attachments.map((a) => (
            <Group key={a.id} gap="xs" role="listitem" wrap="nowrap">
              <IconPaperclip size={16} />
              <Anchor
                href={`${adminPaths.outboxAttachment}?id=${a.id}`}
                download={a.filename}
                fz="sm"
                style={{ wordBreak: 'break-all' }}
              >
                {a.filename}
              </Anchor>
              <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {sizeText(a.sizeBytes)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      <Divider />
      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="outbox-body">
        <LinkifiedText text={mail.text} />
      </Text>
    </Stack>
  );
}

/** One e-mail beside the list, reloaded while it is being delivered. */
function MessageDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const message = useQuery({
    queryKey: adminKeys.outboxMessage(id ?? 0),
    queryFn: () => call(adminEndpoints.outboxMessage, { id: id ?? 0 }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? REFRESH_MS : false),
  });
  let body: React.ReactNode;
  if (message.isPending) body = <Loader size="sm" aria-label="Loading the e-mail" />;
  else if (message.error)
    body = (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load this e-mail">
        {errorMessage(message.error, 'Please try again in a moment.')}
      </Alert>
    );
  else body = <MessageView mail={message.data} />;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Text fw={700} fz="lg">
          {message.data?.subject ?? 'E-mail'}
        </Text>
      }
    >
      {body}
    </Drawer>
  );
}

/** How often a page or message with mail still being delivered is asked for again. */
const REFRESH_MS = 3000;

const stillDelivering = (page: { rows: Row[] } | undefined) =>
  page?.rows.some((row) => row.state === 'pending') ? REFRESH_MS : false;

function Outbox() {
  const outbox = useServerTable(OUTBOX, {
    extra: {},
    loadError: 'The outbox could not be loaded.',
    refreshWhile: stillDelivering,
  });
  const { state } = outbox.controls;
  const [exporting, setExporting] = useState(false);
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get('id'));
  const openId = Number.isInteger(requested) && requested > 0 ? requested : null;
  const setOpen = (id: number | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === null) next.delete('id');
        else next.set('id', String(id));
        return next;
      },
      { replace: id === null },
    );

  return (
    <>
      <PageHeader
        title="Outbox"
        description="Every e-mail PayDesk wrote, newest first, and how its delivery went. Click a subject to read the e-mail and download its attachments."
      />
      <ServerTable
        {...outbox.table}
        label="Outbox"
        noun="e-mails"
        searchPlaceholder="Search recipient or subject"
        empty={{
          filtered: 'No e-mails match these filters',
          unfiltered: 'No e-mails yet',
          unfilteredHint:
            'E-mails PayDesk sends, such as password resets, appear here. Without SMTP_URL they stay here to be read.',
        }}
        wrapping={['subject', 'error']}
        cells={{
          // The subject opens the message, as in a mail client.
          subject: (row) => (
            <Anchor
              component="button"
              fz="sm"
              ta="left"
              onClick={() => setOpen(Number(row.id))}
              aria-label={`Open e-mail to ${String(row.to)}: ${String(row.subject)}`}
            >
              {String(row.subject)}
            </Anchor>
          ),
        }}
        actions={<TableActions onExport={() => setExporting(true)} />}
      />
      <MessageDrawer id={openId} onClose={() => setOpen(null)} />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export the outbox to XLSX"
        subject={`${outbox.narrowed ? 'The e-mails matching the filters and search in force' : 'Every e-mail'}, the ${state.columns.length} visible columns, in the order shown. Times are in UTC.`}
        columns={outbox.visibleColumns.map(defColumn)}
        previewKey={outbox.previewKey}
        loadPreview={outbox.loadPreview}
        download={{ ...outbox.exportDownload, fallbackName: 'Outbox.xlsx' }}
      />
    </>
  );
}

export default function OutboxScreen() {
  return <Outbox />;
}
