import { Badge, Button, Group, Loader, Stack, Table, Text, Textarea } from '@mantine/core';
import { CHECK_TYPES, type CheckType } from '@paydesk/domain/leads/checks';
import { APPROVAL_PAGE_TEXT, leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, call } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { formatDateTime } from '../../components/format';
import { PublicLayout } from '../../components/PublicLayout';
import { CHECK_STATUS_LOOK } from '../leads/leadView';

/** A link that is unknown, used or expired is refused as 404; a malformed one as 400. */
const byCheckOrder = (a: { check_type: CheckType }, b: { check_type: CheckType }) =>
  CHECK_TYPES.indexOf(a.check_type) - CHECK_TYPES.indexOf(b.check_type);

const isInvalidLink = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/** Wide enough for the check results on one line each. */
const WIDTH = 600;

type Outcome = { kind: 'sent' } | { kind: 'invalid' } | { kind: 'error' } | null;

/**
 * The underwriter's page (spec document 3 §2.5), opened from the e-mailed link /leads/app?id=<token> without a
 * session: who the applicant is, how the checks came out, and Approve or Reject, once.
 */
export default function LeadApprovalScreen() {
  const [params] = useSearchParams();
  const token = params.get('id')?.trim() ?? '';
  const [comment, setComment] = useState('');
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const approval = useQuery({
    queryKey: leadsKeys.link(token),
    queryFn: () => call(leadsEndpoints.getApproval, { app_id: token }),
    enabled: token !== '',
    retry: (failures, error) => !isInvalidLink(error) && failures < 1,
    refetchOnWindowFocus: false,
  });

  const decide = async (approved: boolean) => {
    setDeciding(approved ? 'approve' : 'reject');
    try {
      await call(leadsEndpoints.approve, { app_id: token, approved: approved ? 1 : 0, comment });
      setOutcome({ kind: 'sent' });
    } catch (error) {
      setOutcome({ kind: isInvalidLink(error) ? 'invalid' : 'error' });
    } finally {
      setDeciding(null);
    }
  };

  if (outcome?.kind === 'sent')
    return (
      <PublicLayout maxWidth={WIDTH} title="Lead decision">
        <FormAlert kind="success">{APPROVAL_PAGE_TEXT.sent}</FormAlert>
      </PublicLayout>
    );
  if (token === '' || outcome?.kind === 'invalid' || (approval.error && isInvalidLink(approval.error)))
    return (
      <PublicLayout maxWidth={WIDTH} title="Lead decision">
        <FormAlert kind="error">{APPROVAL_PAGE_TEXT.invalid}</FormAlert>
      </PublicLayout>
    );
  if (outcome?.kind === 'error' || approval.error)
    return (
      <PublicLayout maxWidth={WIDTH} title="Lead decision">
        <Stack gap="md">
          <FormAlert kind="error">{APPROVAL_PAGE_TEXT.error}</FormAlert>
          {/* Nothing was recorded: the link can be tried again. */}
          <Button
            variant="default"
            onClick={() => {
              setOutcome(null);
              void approval.refetch();
            }}
          >
            Try again
          </Button>
        </Stack>
      </PublicLayout>
    );
  if (!approval.data)
    return (
      <PublicLayout maxWidth={WIDTH} title="Lead decision">
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">Loading…</Text>
        </Group>
      </PublicLayout>
    );

  const lead = approval.data;
  const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ') || '—';
  return (
    <PublicLayout
      maxWidth={WIDTH}
      title="Lead decision"
      description={`Sent to ${lead.uw_name} on ${formatDateTime(lead.created_on)}; the link works once, until ${formatDateTime(lead.expires_on)}.`}
    >
      <Stack gap="md">
        <Table variant="vertical" layout="fixed" withTableBorder aria-label="Applicant">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={120}>Applicant</Table.Th>
              <Table.Td>{name}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>DBA</Table.Th>
              <Table.Td>{lead.dba ?? '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Legal name</Table.Th>
              <Table.Td>{lead.legal_name ?? '—'}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>RM</Table.Th>
              <Table.Td>{lead.owner_name ?? '—'}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {lead.checks.length > 0 && (
          <Stack gap={6} aria-label="Checks">
            <Text fw={600} fz="sm">
              Checks
            </Text>
            {[...lead.checks].sort(byCheckOrder).map((check) => {
              const look = check.runtime_status ? CHECK_STATUS_LOOK[check.runtime_status] : null;
              return (
                <Group key={check.check_type} justify="space-between" wrap="nowrap" gap="sm">
                  <Text fz="sm" fw={500} w={90} style={{ flex: 'none' }}>
                    {check.check_type}
                  </Text>
                  <Text fz="xs" c="dimmed" style={{ flex: 1 }}>
                    {check.result ?? ''}
                  </Text>
                  <Badge color={look?.color ?? 'gray'} variant="light" radius="sm" style={{ flex: 'none' }}>
                    {look?.label ?? 'Not run'}
                  </Badge>
                </Group>
              );
            })}
          </Stack>
        )}
        <Textarea
          label="Comment"
          description="Optional; the RM sees it with your decision."
          autosize
          minRows={3}
          maxLength={2000}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
        />
        <Group grow>
          <Button
            color="teal"
            leftSection={<IconCheck size={16} />}
            loading={deciding === 'approve'}
            disabled={deciding !== null}
            onClick={() => decide(true)}
          >
            Approve
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconX size={16} />}
            loading={deciding === 'reject'}
            disabled={deciding !== null}
            onClick={() => decide(false)}
          >
            Reject
          </Button>
        </Group>
      </Stack>
    </PublicLayout>
  );
}
