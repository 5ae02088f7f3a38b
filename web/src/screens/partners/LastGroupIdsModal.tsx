import { Modal, Tabs, Text } from '@mantine/core';
import { type LastGroupIds, partnerEndpoints } from '@paydesk/domain/contracts/partners';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import { DataTable } from '../../components/DataTable';

type Entry = LastGroupIds[string][number];

const COLUMNS = [
  { key: 'groupname', header: 'Group Name', render: (e: Entry) => e.groupname },
  { key: 'group_id', header: 'Group ID', render: (e: Entry) => e.group_id, nowrap: true },
  {
    key: 'association_number',
    header: 'Association',
    render: (e: Entry) => e.association_number ?? '—',
    nowrap: true,
  },
];

/** Spec §2.4 Last Utilized Group IDs: one tab per bank, the latest allocations first. */
export function LastGroupIdsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const last = useQuery({
    queryKey: partnerKeys.lastGroupIds(),
    queryFn: () => call(partnerEndpoints.lastGroupIds),
    enabled: opened,
    staleTime: 0,
  });
  const banks = Object.keys(last.data ?? {});
  return (
    <Modal opened={opened} onClose={onClose} title="Last Utilized Group IDs" size="xl">
      {last.error ? (
        <Text c="red" fz="sm" role="alert">
          {errorMessage(last.error, 'The last utilized group IDs could not be loaded.')}
        </Text>
      ) : !last.data ? (
        <Text c="dimmed" fz="sm">
          Loading…
        </Text>
      ) : banks.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No group IDs have been allocated yet.
        </Text>
      ) : (
        <Tabs defaultValue={banks[0]} keepMounted={false}>
          <Tabs.List>
            {banks.map((bank) => (
              <Tabs.Tab key={bank} value={bank}>
                {bank}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {banks.map((bank) => (
            <Tabs.Panel key={bank} value={bank} pt="sm">
              <DataTable<Entry>
                label={`Last utilized group IDs, ${bank}`}
                columns={COLUMNS}
                rows={last.data[bank]}
                rowKey={(e) => e.group_id}
                loading={last.isFetching}
                empty={{
                  title: `No ${bank} group IDs yet`,
                  description: 'Add Group ID allocates the first.',
                }}
                compact
              />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Modal>
  );
}
