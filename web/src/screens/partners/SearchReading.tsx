import {
  Accordion,
  Alert,
  Badge,
  Box,
  Button,
  EmptyState,
  Group,
  LoadingOverlay,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { EXPORT_PREVIEW_ROWS } from '@paydesk/domain';
import {
  PARTNER_EXPORT_FILE,
  PARTNER_ROWS_PER_PAGE,
  partnerEndpoints,
  partnerImportColumns,
  partnerPaths,
} from '@paydesk/domain/contracts/partners';
import { IconAlertTriangle, IconDatabaseOff, IconFileExport, IconFileImport } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import type { Column, Row } from '../../components/DataTable';
import { SearchBox } from '../../components/DataTable/SearchBox';
import { ExportModal } from '../../components/ExportModal';
import { ImportModal } from '../../components/ImportModal';
import { AccountFields } from './AccountFields';
import {
  type DirectoryAccount,
  day10,
  exportRow,
  groupByAccount,
  pageAccounts,
  percentShown,
  statusBadge,
} from './directory';

const EXPORT_COLUMNS: Column<Row>[] = partnerImportColumns.map((column) => ({
  key: column.header,
  header: column.label ?? column.header,
  render: (row) => {
    const value = row[column.header];
    if (column.header === 'isc') return percentShown(value as number | null);
    return value === null || value === undefined ? '' : String(value);
  },
  nowrap: true,
}));

/**
 * The search reading (spec §2.4): a debounced search, pages of 60 rows made of whole accounts, and an
 * accordion of accounts with their fields and groups.
 */
export function SearchReading({ canImport, busy }: { canImport: boolean; busy: boolean }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const val = (params.get('q') ?? '').slice(0, 100);
  const asked = Math.max(1, Math.floor(Number(params.get('p')) || 1));
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);

  const list = useQuery({
    queryKey: partnerKeys.directory(val),
    queryFn: () => (val === '' ? call(partnerEndpoints.list) : call(partnerEndpoints.search, { val })),
    placeholderData: keepPreviousData,
  });
  const accounts = useMemo(() => groupByAccount(list.data ?? []), [list.data]);
  const pages = useMemo(() => pageAccounts(accounts, PARTNER_ROWS_PER_PAGE), [accounts]);
  const page = Math.min(asked, Math.max(1, pages.length));
  const shown = pages[page - 1] ?? [];
  const before = pages.slice(0, page - 1).reduce((n, p) => n + p.length, 0);

  const update = (change: (next: URLSearchParams) => void) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      change(next);
      return next;
    });
  const search = (text: string) =>
    update((next) => {
      if (text === '') next.delete('q');
      else next.set('q', text);
      next.delete('p');
    });
  const goTo = (n: number) => update((next) => (n > 1 ? next.set('p', String(n)) : next.delete('p')));

  const loadPreview = async () => {
    const all = groupByAccount(await call(partnerEndpoints.list));
    return { rows: all.slice(0, EXPORT_PREVIEW_ROWS).map(exportRow), total: all.length };
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <SearchBox value={val} onSearch={search} placeholder="Search account, name, RM, group name or ID" />
        <Group gap="sm">
          {canImport && (
            <Button
              variant="default"
              leftSection={<IconFileImport size={16} />}
              onClick={() => setImporting(true)}
              disabled={busy}
            >
              Import XLSX
            </Button>
          )}
          <Button
            variant="default"
            leftSection={<IconFileExport size={16} />}
            onClick={() => setExporting(true)}
            disabled={busy}
          >
            Export XLSX
          </Button>
        </Group>
      </Group>

      <Paper withBorder radius="md" pos="relative">
        <LoadingOverlay
          visible={list.isFetching && list.data !== undefined}
          zIndex={3}
          loaderProps={{ size: 'sm' }}
        />
        {list.error ? (
          <Alert
            m="md"
            color="red"
            icon={<IconAlertTriangle size={18} />}
            title="Could not load the partners"
          >
            {errorMessage(list.error, 'The partner list could not be loaded. Try again in a moment.')}
          </Alert>
        ) : list.data === undefined ? (
          <Text p="xl" ta="center" c="dimmed" fz="sm">
            Loading…
          </Text>
        ) : accounts.length === 0 ? (
          <EmptyState
            py={48}
            icon={<IconDatabaseOff size={26} />}
            withIndicatorBackground
            title={val === '' ? 'No partner accounts yet' : `No partners match “${val}”`}
            description={
              val === ''
                ? 'Import from Salesforce brings in every partner account and its groups.'
                : 'The search matches the start of an account name, name, RM, group name or group ID. Clear it to see every account.'
            }
          />
        ) : (
          <Accordion multiple variant="default" chevronPosition="left" aria-label="Partner accounts">
            {shown.map((entry) => (
              <AccountItem key={entry.account.accountid} entry={entry} />
            ))}
          </Accordion>
        )}
        {accounts.length > 0 && (
          <Group
            justify="space-between"
            px="md"
            py="sm"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            <Text fz="sm" c="dimmed" data-testid="partner-count">
              Accounts {(before + 1).toLocaleString('en-US')}–
              {(before + shown.length).toLocaleString('en-US')} of {accounts.length.toLocaleString('en-US')} ·{' '}
              {shown.reduce((n, a) => n + a.rows, 0)} rows on this page (at most {PARTNER_ROWS_PER_PAGE}; an
              account is never split)
            </Text>
            <Pagination
              size="sm"
              total={pages.length}
              value={page}
              onChange={goTo}
              siblings={1}
              getControlProps={(control) => ({
                'aria-label':
                  control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
              })}
              getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            />
          </Group>
        )}
      </Paper>

      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export the partners to XLSX"
        subject={`${PARTNER_EXPORT_FILE}, sheet 'Partners': every account (the search does not apply), one row per account with its group IDs comma-joined. Import XLSX takes this layout back.`}
        columns={EXPORT_COLUMNS}
        previewKey={partnerKeys.exportPreview()}
        loadPreview={loadPreview}
        download={{ path: partnerPaths.export, body: {}, fallbackName: PARTNER_EXPORT_FILE }}
      />
      <ImportModal
        opened={importing}
        onClose={() => setImporting(false)}
        title="Import partners from XLSX"
        path={partnerPaths.upload}
        columns={partnerImportColumns}
        replaces="the fields of each account in the file (accounts not known yet are added); the group IDs must be the account's own and are never changed"
        onImported={() => queryClient.invalidateQueries({ queryKey: partnerKeys.all })}
      />
    </Stack>
  );
}

function AccountItem({ entry }: { entry: DirectoryAccount }) {
  const { account: a, groups } = entry;
  const { label, color } = statusBadge(a.status);
  return (
    <Accordion.Item value={a.accountid}>
      <Accordion.Control aria-label={a.accountname}>
        <Group gap="sm" wrap="nowrap" justify="space-between" pr="md">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Text fw={600} fz="sm" truncate>
              {a.accountname}
            </Text>
            <Badge color={color} variant="light" radius="xl" style={{ flex: 'none' }}>
              {label}
            </Badge>
          </Group>
          <Text fz="xs" c="dimmed" style={{ flex: 'none' }}>
            {[
              a.fullname,
              a.rm && `RM ${a.rm}`,
              `${groups.length} ${groups.length === 1 ? 'group' : 'groups'}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <AccountFields
            fields={[
              ['RM', a.rm],
              ['Recruiter', a.recruiter],
              ['ISC', percentShown(a.isc)],
              ['Liability', a.liability],
              ['Date Signed', day10(a.datesigned)],
              ['Full Name', a.fullname],
              ['Email', a.processingemail],
              ['Phone', a.phone],
              ['City', a.billingcity],
              ['State', a.billingstate],
              ['Zip', a.billingzip],
              ['Operations Email', a.operationemail],
            ]}
          />
          {groups.length === 0 ? (
            <Text fz="sm" c="dimmed">
              No processing groups yet.
            </Text>
          ) : (
            <Box style={{ overflowX: 'auto' }}>
              <Table
                aria-label={`Groups of ${a.accountname}`}
                fz="sm"
                verticalSpacing={6}
                withTableBorder
                striped
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Group Name</Table.Th>
                    <Table.Th>Group ID</Table.Th>
                    <Table.Th>Bank</Table.Th>
                    <Table.Th>Profile</Table.Th>
                    <Table.Th>Processor</Table.Th>
                    <Table.Th>Effective Date</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {groups.map((g, i) => (
                    <Table.Tr key={g.groupid ?? i}>
                      <Table.Td>{g.groupname ?? '—'}</Table.Td>
                      <Table.Td>{g.groupid ?? '—'}</Table.Td>
                      <Table.Td>{g.bank ?? '—'}</Table.Td>
                      <Table.Td>{g.profile ?? '—'}</Table.Td>
                      <Table.Td>{g.processor ?? '—'}</Table.Td>
                      <Table.Td>{day10(g.effectivedate)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
