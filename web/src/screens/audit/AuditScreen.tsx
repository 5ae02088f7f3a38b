import { Button, Code, Group, Text } from '@mantine/core';
import { type AuditRow, adminPaths, type Page } from '@paydesk/domain';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { errorMessage, get } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';
import { BreakableEmail } from '../../components/BreakableEmail';
import { type Column, DataTable } from '../../components/DataTable';
import { DateTimeText } from '../../components/DateTimeText';
import { RequirePermission } from '../../components/NoAccess';
import { PageHeader } from '../../components/PageHeader';

const PAGE_SIZE = 50;

const columns: Column<AuditRow>[] = [
  { key: 'at', header: 'Time', render: (row) => <DateTimeText value={row.at} /> },
  {
    key: 'actor',
    header: 'Who',
    render: (row) =>
      row.actorEmail ? (
        <BreakableEmail email={row.actorEmail} />
      ) : (
        <Text fz="sm" c="dimmed">
          System
        </Text>
      ),
  },
  {
    key: 'action',
    header: 'Action',
    nowrap: true,
    render: (row) => (
      <Text fz="sm" fw={500} ff="monospace">
        {row.action}
      </Text>
    ),
  },
  {
    key: 'subject',
    header: 'Subject',
    render: (row) => (row.subject ? <BreakableEmail email={row.subject} /> : '—'),
  },
  { key: 'ip', header: 'IP', render: (row) => row.ip ?? '—' },
  {
    key: 'details',
    header: 'Details',
    render: (row) =>
      Object.keys(row.details).length === 0 ? (
        '—'
      ) : (
        <Code display="block" miw={180} maw={420} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {JSON.stringify(row.details)}
        </Code>
      ),
  },
];

/** The page number lives in the URL so a page of the log can be linked and survives a reload. */
function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const parsed = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isFinite(parsed) && parsed >= 1 ? parsed : 1;
  return [page, (next) => setParams(next === 1 ? {} : { page: String(next) })];
}

function AuditLog() {
  const [page, setPage] = usePageParam();
  const audit = useQuery({
    queryKey: adminKeys.auditPage(page, PAGE_SIZE),
    queryFn: () => get<Page<AuditRow>>(`${adminPaths.audit}?page=${page}&pageSize=${PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
  const total = audit.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(page * PAGE_SIZE, total);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins, password changes and administrative changes, newest first."
      />
      <DataTable
        label="Audit log"
        columns={columns}
        rows={audit.data?.rows}
        rowKey={(row) => row.id}
        loading={audit.isLoading}
        error={audit.error ? errorMessage(audit.error, 'The audit log could not be loaded.') : null}
        empty={
          page > 1
            ? {
                title: 'No entries on this page',
                description: 'The log is shorter than that. Go back to page 1.',
              }
            : {
                title: 'Nothing recorded yet',
                description: 'Entries appear here as people sign in, change passwords and manage users.',
              }
        }
        footer={
          <Group
            justify="space-between"
            px="md"
            py="sm"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            <Text fz="sm" c="dimmed">
              {total === 0 ? 'No entries' : `Entries ${first}–${last} of ${total} · page ${page} of ${pages}`}
            </Text>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                leftSection={<IconChevronLeft size={14} />}
                disabled={page <= 1}
                onClick={() => setPage(page - 1)}
              >
                Previous
              </Button>
              <Button
                variant="default"
                size="xs"
                rightSection={<IconChevronRight size={14} />}
                disabled={page >= pages || audit.isPlaceholderData}
                onClick={() => setPage(page + 1)}
              >
                Next
              </Button>
            </Group>
          </Group>
        }
      />
    </>
  );
}

export default function AuditScreen() {
  return (
    <RequirePermission permission="manage_users">
      <AuditLog />
    </RequirePermission>
  );
}
