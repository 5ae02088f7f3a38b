import { Button, Group, Loader, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { APPROVAL_LINK_LIFETIME_HOURS, leadsEndpoints } from '@paydesk/domain/leads/contracts';
import type { LeadStep } from '@paydesk/domain/leads/steps';
import { IconSend } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { formatDateTime } from '../../components/format';

interface SendStepProps {
  leadId: string;
  onSent: (step: LeadStep & { lead_id: string }) => void;
}

const optionsOf = (users: readonly { name: string; email: string }[]) =>
  users.map((user) => ({
    value: user.email,
    label: user.name ? `${user.name} (${user.email})` : user.email,
  }));

/**
 * Send for Approval (spec §2.4): the underwriter (a user holding the Underwriter capability) gets an e-mail with
 * a single-use link to decide; a cc user may be copied.
 */
export function SendStep({ leadId, onSent }: SendStepProps) {
  const queryClient = useQueryClient();
  const approval = useQuery({
    queryKey: leadsKeys.approval(leadId),
    queryFn: () => call(leadsEndpoints.getLeadApproval, { lead_id: leadId }),
  });
  const people = useQuery({
    queryKey: leadsKeys.underwriters(),
    queryFn: () => call(leadsEndpoints.getUnderwriters),
  });
  const [underwriter, setUnderwriter] = useState<string | null>(null);
  const [cc, setCc] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const loadError = approval.error ?? people.error;
  if (loadError)
    return (
      <FormAlert kind="error">{errorMessage(loadError, 'The underwriters could not be loaded.')}</FormAlert>
    );
  if (!approval.data || !people.data) return <Loader size="sm" aria-label="Loading the underwriters" />;

  const sent = approval.data.approval;
  if (sent)
    return (
      <Stack gap="xs" mt="md">
        <FormAlert kind="info">
          Sent to {sent.uw_name} ({sent.assigned_user}) by {sent.assigned_by} on{' '}
          {formatDateTime(sent.created_on)}
          {sent.cc_user ? `, copy to ${sent.cc_user}` : ''}.
        </FormAlert>
      </Stack>
    );

  const send = async () => {
    setTried(true);
    if (!underwriter) return;
    setSending(true);
    setProblem(null);
    try {
      const answer = await call(leadsEndpoints.sendForApproval, {
        lead_id: leadId,
        assigned_user: underwriter,
        cc_user: cc,
      });
      notifications.show({ color: 'teal', message: answer.message });
      queryClient.setQueryData(leadsKeys.approval(leadId), { approval: answer.approval });
      await queryClient.invalidateQueries({ queryKey: leadsKeys.approvals() });
      onSent(answer.step);
    } catch (error) {
      setProblem(errorMessage(error, 'The lead could not be sent. Try again.'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="md" mt="md">
      <Text c="dimmed" fz="sm">
        The underwriter gets an e-mail with a link to approve or reject this lead. The link works once and for{' '}
        {APPROVAL_LINK_LIFETIME_HOURS} hours.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} maw={900}>
        <Select
          label="Underwriter"
          withAsterisk
          placeholder={
            people.data.underwriters.length === 0 ? 'No user holds the Underwriter capability' : 'Choose'
          }
          searchable
          data={optionsOf(people.data.underwriters)}
          value={underwriter}
          onChange={(value) => {
            setUnderwriter(value);
            if (value && value === cc) setCc(null);
          }}
          error={tried && !underwriter ? 'Choose an underwriter' : undefined}
        />
        <Select
          label="Copy (cc)"
          placeholder="Nobody"
          searchable
          clearable
          data={optionsOf(people.data.cc_users.filter((user) => user.email !== underwriter))}
          value={cc}
          onChange={setCc}
        />
      </SimpleGrid>
      {problem && <FormAlert kind="error">{problem}</FormAlert>}
      <Group>
        <Button leftSection={<IconSend size={16} />} onClick={send} loading={sending}>
          Send for approval
        </Button>
      </Group>
    </Stack>
  );
}
