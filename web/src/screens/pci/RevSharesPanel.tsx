import {
  ActionIcon,
  Button,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { PCI_MESSAGES, type PciRevShare, pciEndpoints } from '@paydesk/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { pciKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { ConfirmModal } from '../bonus/ConfirmModal';

/**
 * Rev Shares (spec §2.2, §5): each ISO's share of its merchants' PCI billing from an effective date. ISO, Rev
 * Share % and Effective Date are all required; a share of the same ISO and date replaces the old one. Delete
 * asks "Are you sure?".
 */
export function RevSharesPanel() {
  const queryClient = useQueryClient();
  const partners = useQuery({ queryKey: pciKeys.partners(), queryFn: () => call(pciEndpoints.getPartners) });
  const shares = useQuery({
    queryKey: pciKeys.configList('revShares'),
    queryFn: () => call(pciEndpoints.getPciRevShares),
  });
  const [iso, setIso] = useState<string | null>(null);
  const [share, setShare] = useState<string | number>('');
  const [effective, setEffective] = useState('');
  const [adding, setAdding] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [deleting, setDeleting] = useState<PciRevShare | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const complete = iso !== null && share !== '' && effective !== '';

  const add = async () => {
    if (!complete) return;
    setAdding(true);
    setOutcome(null);
    try {
      await call(pciEndpoints.addRevShare, {
        iso_name: iso,
        rev_share: Number(share),
        effective_date: effective,
      });
      setOutcome({ kind: 'success', text: `${iso}: ${share}% from ${effective} saved.` });
      setIso(null);
      setShare('');
      setEffective('');
      // Commissions follow the rev share in effect on the billing date.
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorMessage(error, 'The rev share was not saved. Try again.') });
    } finally {
      setAdding(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await call(pciEndpoints.deleteRevShare, {
        iso_name: deleting.iso_name,
        effective_date: deleting.effective_date.slice(0, 10),
      });
      notifications.show({
        color: 'teal',
        title: 'Rev share deleted',
        message: `${deleting.iso_name}, effective ${deleting.effective_date.slice(0, 10)}.`,
      });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    } catch (error) {
      setDeleteError(errorMessage(error, 'The rev share was not deleted. Try again.'));
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={4}>Add a rev share</Title>
        <Group align="flex-end" gap="sm">
          <Select
            label="ISO"
            w={300}
            placeholder={partners.isPending ? 'Loading ISOs…' : 'Choose an ISO'}
            data={(partners.data ?? []).map((p) => p.iso_name)}
            value={iso}
            onChange={setIso}
            searchable
            required
          />
          <NumberInput
            label="Rev Share %"
            w={130}
            min={0}
            max={100}
            decimalScale={2}
            value={share}
            onChange={setShare}
            required
          />
          <TextInput
            label="Effective Date"
            type="date"
            w={170}
            value={effective}
            onChange={(e) => setEffective(e.currentTarget.value)}
            required
          />
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => void add()}
            loading={adding}
            disabled={!complete}
          >
            Add rev share
          </Button>
        </Group>
        {outcome && <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert>}
      </Stack>
      <Stack gap="xs">
        <Title order={4}>Rev shares</Title>
        {shares.isPending ? (
          <Loader size="sm" />
        ) : (shares.data ?? []).length === 0 ? (
          <Text fz="sm" c="dimmed">
            No PCI rev shares: no ISO earns a commission on PCI billing.
          </Text>
        ) : (
          <Table withTableBorder striped maw={720} aria-label="PCI rev shares">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ISO</Table.Th>
                <Table.Th ta="right">Rev Share %</Table.Th>
                <Table.Th>Effective Date</Table.Th>
                <Table.Th w={60} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(shares.data ?? []).map((s) => (
                <Table.Tr key={`${s.iso_name}|${s.effective_date}`}>
                  <Table.Td>{s.iso_name}</Table.Td>
                  <Table.Td ta="right">{s.rev_share}%</Table.Td>
                  <Table.Td>{s.effective_date.slice(0, 10)}</Table.Td>
                  <Table.Td>
                    <Tooltip label="Delete" withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete the rev share of ${s.iso_name} effective ${s.effective_date.slice(0, 10)}`}
                        onClick={() => {
                          setDeleteError(null);
                          setDeleting(s);
                        }}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <ConfirmModal
        subject={
          deleting && (
            <>
              {PCI_MESSAGES.deleteConfirm} The rev share of {deleting.iso_name} ({deleting.rev_share}% from{' '}
              {deleting.effective_date.slice(0, 10)}) is deleted; commissions of later billing use the share
              in effect before it.
            </>
          )
        }
        title="Delete rev share"
        confirmLabel="Delete"
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void remove()}
        onClose={() => !deleteBusy && setDeleting(null)}
      />
    </Stack>
  );
}
