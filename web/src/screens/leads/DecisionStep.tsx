import { Anchor, Badge, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { formatDateTime } from '../../components/format';
import { APPROVAL_STATUS_COLORS, applicantName, approvalStatus } from './leadView';

/** While the underwriter has not decided, the step asks this often whether they have. */
const PENDING_REFRESH_MS = 10_000;

/** Decision (spec §2.4): Pending, Approved or Rejected, with the underwriter's comment and the CRM account. */
export function DecisionStep({ leadId }: { leadId: string }) {
  const approval = useQuery({
    queryKey: leadsKeys.approval(leadId),
    queryFn: () => call(leadsEndpoints.getLeadApproval, { lead_id: leadId }),
    refetchInterval: (query) =>
      query.state.data?.approval && query.state.data.approval.approved === null ? PENDING_REFRESH_MS : false,
  });
  if (approval.error)
    return (
      <FormAlert kind="error">{errorMessage(approval.error, 'The decision could not be loaded.')}</FormAlert>
    );
  if (!approval.data) return <Loader size="sm" aria-label="Loading the decision" />;
  const sent = approval.data.approval;
  if (!sent)
    return (
      <Text c="dimmed" mt="md">
        This lead has not been sent for approval yet.
      </Text>
    );
  const status = approvalStatus(sent);
  return (
    <Card withBorder radius="md" padding="lg" mt="md" maw={640} component="section" aria-label="Decision">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{applicantName(sent)}</Text>
          <Badge size="lg" color={APPROVAL_STATUS_COLORS[status]} variant="light" radius="sm">
            {status}
          </Badge>
        </Group>
        <Text fz="sm">
          {status === 'Pending'
            ? `Waiting for ${sent.uw_name} (${sent.assigned_user}), sent ${formatDateTime(sent.created_on)}.`
            : `${status} by ${sent.uw_name} on ${formatDateTime(sent.decided_on)}.`}
        </Text>
        {sent.comment && (
          <Text fz="sm">
            <Text span c="dimmed" fz="sm">
              Comment:{' '}
            </Text>
            {sent.comment}
          </Text>
        )}
        {status === 'Approved' && (
          <Group gap="xs">
            <Text fz="sm" c="dimmed">
              CRM account:
            </Text>
            <Text fz="sm" ff="monospace">
              {sent.account_id ?? '—'}
            </Text>
            {sent.crm_url && (
              <Anchor href={sent.crm_url} target="_blank" rel="noreferrer" fz="sm">
                <Group gap={4} wrap="nowrap">
                  CRM profile <IconExternalLink size={14} />
                </Group>
              </Anchor>
            )}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
