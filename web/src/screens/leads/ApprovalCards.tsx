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
  Text,
} from '@mantine/core';
import { type ApprovalRow, leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { formatDateTime } from '../../components/format';
import { APPROVAL_STATUS_COLORS, type ApprovalStatus, applicantName, approvalStatus } from './leadView';

/** Cards shown before "Show more". */
const PAGE = 12;
const FILTERS = ['All', 'Pending', 'Approved', 'Rejected'] as const;

function Line({ label, value }: { label: string; value: string | null }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text fz="xs" c="dimmed" w={86} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Text fz="sm" truncate>
        {value || '—'}
      </Text>
    </Group>
  );
}

function ApprovalCard({ approval, onOpen }: { approval: ApprovalRow; onOpen: (leadId: string) => void }) {
  const status = approvalStatus(approval);
  const name = applicantName(approval);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={`Approval of ${name}`}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} truncate>
            {name}
          </Text>
          <Badge color={APPROVAL_STATUS_COLORS[status]} variant="light" radius="sm" style={{ flex: 'none' }}>
            {status}
          </Badge>
        </Group>
        <Line label="DBA" value={approval.dba} />
        <Line label="RM" value={approval.owner_name} />
        <Line label="Underwriter" value={approval.uw_name} />
        <Line label="Sent" value={formatDateTime(approval.created_on)} />
        <Group justify="space-between" mt={4}>
          <Button variant="light" size="xs" onClick={() => onOpen(approval.lead_id)}>
            Open lead
          </Button>
          {status === 'Approved' &&
            (approval.crm_url ? (
              <Anchor href={approval.crm_url} target="_blank" rel="noreferrer" fz="sm">
                <Group gap={4} wrap="nowrap">
                  CRM profile <IconExternalLink size={14} />
                </Group>
              </Anchor>
            ) : (
              // A CRM without profile pages (the sandbox) still gives the converted account's id.
              approval.account_id && (
                <Text fz="xs" c="dimmed" ff="monospace" title="CRM account">
                  CRM account {approval.account_id}
                </Text>
              )
            ))}
        </Group>
      </Stack>
    </Card>
  );
}

/** The approval cards (spec §2.4): every lead sent to an underwriter, with its outcome. */
export function ApprovalCards({ onOpen }: { onOpen: (leadId: string) => void }) {
  const [filter, setFilter] = useState<'All' | ApprovalStatus>('All');
  const [shown, setShown] = useState(PAGE);
  const approvals = useQuery({
    queryKey: leadsKeys.approvals(),
    queryFn: () => call(leadsEndpoints.getApprovals),
  });

  if (approvals.error)
    return (
      <FormAlert kind="error">
        {errorMessage(approvals.error, 'The approvals could not be loaded.')}
      </FormAlert>
    );
  if (!approvals.data)
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Skeleton h={170} />
        <Skeleton h={170} />
        <Skeleton h={170} />
      </SimpleGrid>
    );
  const all = approvals.data.approvals;
  const matching = filter === 'All' ? all : all.filter((a) => approvalStatus(a) === filter);
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Approval status"
        value={filter}
        onChange={(value) => {
          setFilter(value as typeof filter);
          setShown(PAGE);
        }}
        data={FILTERS.map((f) => ({
          value: f,
          label: `${f} (${f === 'All' ? all.length : all.filter((a) => approvalStatus(a) === f).length})`,
        }))}
        w="fit-content"
      />
      {matching.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {all.length === 0 ? 'No lead has been sent for approval yet.' : 'No approval has this status.'}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {matching.slice(0, shown).map((approval) => (
            <ApprovalCard key={approval.app_id} approval={approval} onOpen={onOpen} />
          ))}
        </SimpleGrid>
      )}
      {matching.length > shown && (
        <Button variant="subtle" onClick={() => setShown((n) => n + PAGE)} w="fit-content">
          Show more ({matching.length - shown} left)
        </Button>
      )}
    </Stack>
  );
}
