import { Table, Text } from '@mantine/core';
import { partnerEndpoints } from '@paydesk/domain/contracts/partners';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import { formatDateTime } from '../../components/format';
import { percentShown } from './directory';

/** A group's rev share changes, newest first: from, to, who and when. */
export function RevShareHistory({ groupId }: { groupId: string }) {
  const history = useQuery({
    queryKey: partnerKeys.revShareHistory(groupId),
    queryFn: () => call(partnerEndpoints.revShareHistory, { group_id: groupId }),
  });
  if (history.error) {
    return (
      <Text fz="sm" c="red" role="alert">
        {errorMessage(history.error, 'The rev share history could not be loaded.')}
      </Text>
    );
  }
  if (!history.data) {
    return (
      <Text fz="sm" c="dimmed">
        Loading the history…
      </Text>
    );
  }
  if (history.data.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        No rev share changes recorded for group {groupId}: it still has the rev share it was created or
        imported with.
      </Text>
    );
  }
  return (
    <Table aria-label={`Rev share history of group ${groupId}`} fz="xs" verticalSpacing={4} withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Changed</Table.Th>
          <Table.Th>From</Table.Th>
          <Table.Th>To</Table.Th>
          <Table.Th>By</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.data.map((change) => (
          <Table.Tr key={`${change.changed_at}-${change.new_rev_share}`}>
            <Table.Td>{formatDateTime(change.changed_at)}</Table.Td>
            <Table.Td>{percentShown(change.old_rev_share)}</Table.Td>
            <Table.Td>{percentShown(change.new_rev_share)}</Table.Td>
            <Table.Td>{change.changed_by ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
