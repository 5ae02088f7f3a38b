import { Drawer, Stack, Table, Text } from '@mantine/core';
import { achEndpoints, achTable, isAchEditableColumn } from '@paydesk/domain';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { achKeys } from '../../app/queryKeys';
import { formatCurrency, formatDateTime } from '../../components/format';
import { type AchRow, achRowId } from './achEdit';
import { achRowName } from './achView';

const columnLabel = (id: string) => achTable.columns.find((c) => c.id === id)?.label ?? id;

/** A stored value as the table shows it: amounts with their currency, empty as '—'. */
function shown(column: string, value: string | null): string {
  if (value === null || value === '') return '—';
  const type = achTable.columns.find((c) => c.id === column)?.type;
  return type === 'money' ? formatCurrency(value) : value;
}

/** A row's changes, newest first: when, who, which column, from and to (issue 12: every change is kept). */
export function AchHistoryDrawer({ row, onClose }: { row: AchRow | null; onClose: () => void }) {
  return (
    <Drawer
      opened={row !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={row ? `History of ${achRowName(row)}` : ''}
    >
      {row && <History row={row} />}
    </Drawer>
  );
}

function History({ row }: { row: AchRow }) {
  const history = useQuery({
    queryKey: achKeys.history(achRowId(row)),
    queryFn: () =>
      call(achEndpoints.history, {
        unique_key: Number(row.main_unique_key),
        historic: Number(row.historic) === 1 ? 1 : 0,
      }),
  });
  const workedBy = row.workedBy ? String(row.workedBy) : null;
  return (
    <Stack gap="sm">
      <Text fz="sm" c="dimmed">
        {String(row.DBAName ?? '')} · {String(row.LegalName ?? '')} ·{' '}
        {formatCurrency(row.TransactionAmount as string)} returned on the entry of{' '}
        {String(row.EffectiveEntryDATE ?? '—')}.
        {workedBy
          ? ` Last worked by ${workedBy} at ${formatDateTime(row.datetimeWorked as string | null)}.`
          : ' Not worked yet.'}
      </Text>
      {history.error && (
        <Text fz="sm" c="red" role="alert">
          {errorMessage(history.error, 'The history could not be loaded.')}
        </Text>
      )}
      {!history.data && !history.error && (
        <Text fz="sm" c="dimmed">
          Loading the history…
        </Text>
      )}
      {history.data?.length === 0 && (
        <Text fz="sm" c="dimmed">
          No changes recorded: the row is as it was imported.
        </Text>
      )}
      {history.data && history.data.length > 0 && (
        <Table aria-label="Changes" fz="xs" verticalSpacing={6} withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Changed</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>To</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.map((change) => (
              <Table.Tr key={`${change.changedAt}-${change.column}-${change.newValue}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(change.changedAt)}</Table.Td>
                <Table.Td>{change.changedBy ?? '—'}</Table.Td>
                <Table.Td>
                  {isAchEditableColumn(change.column) ? columnLabel(change.column) : change.column}
                </Table.Td>
                <Table.Td>{shown(change.column, change.oldValue)}</Table.Td>
                <Table.Td>{shown(change.column, change.newValue)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
