import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { type PartnerAccount, partnerEndpoints } from '@paydesk/domain/contracts/partners';
import { IconHistory, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import { AccountFields } from './AccountFields';
import { day10, percentShown } from './directory';
import { RevShareCell } from './RevShareCell';
import { RevShareHistory } from './RevShareHistory';

interface AccountCardProps {
  accountid: string;
  canEdit: boolean;
  onAddGroup: (account: PartnerAccount) => void;
}

/**
 * The table reading's detail card (spec §2.4): the account's fields, then its groups with the rev share
 * editable in place for editors, and the chosen group's rev share history.
 */
export function AccountCard({ accountid, canEdit, onAddGroup }: AccountCardProps) {
  const queryClient = useQueryClient();
  const account = useQuery({
    queryKey: partnerKeys.account(accountid),
    queryFn: () => call(partnerEndpoints.account, { accountid }),
  });
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  if (account.error) {
    return (
      <Text c="red" fz="sm" role="alert">
        {errorMessage(account.error, 'This account could not be loaded.')}
      </Text>
    );
  }
  const a = account.data;
  if (!a) {
    return (
      <Text c="dimmed" fz="sm">
        Loading the account…
      </Text>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" aria-label={`Details of ${a.accountname}`} role="region">
      <Stack gap="md">
        <AccountFields
          fields={[
            ['Recruiter', a.recruiter],
            ['ISC', percentShown(a.isc)],
            ['Liability', a.liability],
            ['Date Signed', day10(a.datesigned)],
            ['Email', a.processingemail],
            ['Phone', a.phone],
            ['Address', a.billingstreet],
            ['City', a.billingcity],
            ['State', a.billingstate],
            ['Zip', a.billingzip],
            ['Operations Email', a.operationemail],
          ]}
        />
        <Group justify="space-between">
          <Title order={3} fz="sm">
            Groups ({a.groups.length})
          </Title>
          {canEdit && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => onAddGroup(a)}
            >
              Add Group ID
            </Button>
          )}
        </Group>
        {a.groups.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No processing groups yet.{canEdit ? ' Add Group ID opens the first.' : ''}
          </Text>
        ) : (
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
                <Table.Th>Association</Table.Th>
                <Table.Th>Rev Share</Table.Th>
                <Table.Th>Bank</Table.Th>
                <Table.Th>Processor</Table.Th>
                <Table.Th>Effective Date</Table.Th>
                <Table.Th>
                  <span style={{ position: 'absolute', clip: 'rect(0 0 0 0)' }}>History</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {a.groups.map((g) => (
                <Table.Tr key={g.group_sf_id}>
                  <Table.Td>{g.groupname}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{g.groupid}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{g.association_number ?? '—'}</Table.Td>
                  <Table.Td>
                    <RevShareCell
                      groupId={g.groupid}
                      groupName={g.groupname}
                      fraction={g.rev_share}
                      editable={canEdit}
                      onSaved={() => {
                        void queryClient.invalidateQueries({ queryKey: partnerKeys.account(accountid) });
                        void queryClient.invalidateQueries({
                          queryKey: partnerKeys.revShareHistory(g.groupid),
                        });
                        setHistoryOf(g.groupid);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>{g.bank ?? '—'}</Table.Td>
                  <Table.Td>{g.processor}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{day10(g.effectivedate)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant={historyOf === g.groupid ? 'light' : 'subtle'}
                      leftSection={<IconHistory size={12} />}
                      onClick={() => setHistoryOf(historyOf === g.groupid ? null : g.groupid)}
                      aria-label={`Rev share history of group ${g.groupid}`}
                      aria-pressed={historyOf === g.groupid}
                    >
                      History
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {historyOf !== null && a.groups.some((g) => g.groupid === historyOf) && (
          <Stack gap={6}>
            <Text fz="sm" fw={600}>
              Rev share history of group {historyOf}
            </Text>
            <RevShareHistory groupId={historyOf} />
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
