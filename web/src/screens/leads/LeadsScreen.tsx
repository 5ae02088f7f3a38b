import { CloseButton, Group, Stack, Tabs, Text } from '@mantine/core';
import { leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { useQuery } from '@tanstack/react-query';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { PageHeader } from '../../components/PageHeader';
import { ApprovalCards } from './ApprovalCards';
import { LeadDetail } from './LeadDetail';
import { LeadPicker } from './LeadPicker';
import { openLeadsOf, tabAfterClosing } from './leadView';

const LEADS_TAB = 'leads';

/**
 * Leads (spec document 3 §2.4): pick a lead from the CRM, take it through the application, the underwriting
 * checks and the underwriter's decision. Opened leads are closable tabs, kept in the address
 * (?open=id1,id2&tab=id1). Needs the Leads capability, which the server checks on every call.
 */
export default function LeadsScreen() {
  const [params, setParams] = useSearchParams();
  const open = openLeadsOf(params.get('open'));
  const wanted = params.get('tab');
  const tab = wanted && open.includes(wanted) ? wanted : LEADS_TAB;
  const leads = useQuery({ queryKey: leadsKeys.list(), queryFn: () => call(leadsEndpoints.getLeads) });
  const names = new Map((leads.data?.records ?? []).map((lead) => [lead.Id, lead.Name]));

  const show = (nextOpen: readonly string[], nextTab: string) =>
    setParams(
      nextOpen.length === 0
        ? {}
        : { open: nextOpen.join(','), ...(nextTab !== LEADS_TAB && { tab: nextTab }) },
    );
  const openLead = (id: string) => show(open.includes(id) ? open : [...open, id], id);
  const closeLead = (id: string) =>
    show(
      open.filter((other) => other !== id),
      tabAfterClosing(open, id, tab),
    );

  return (
    <>
      <PageHeader
        title="Leads"
        description="Take a lead from the CRM through the merchant's application, the underwriting checks and the underwriter's decision."
      />
      <Tabs value={tab} onChange={(value) => value && show(open, value)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value={LEADS_TAB}>Leads</Tabs.Tab>
          {open.map((id) => (
            <Tabs.Tab
              key={id}
              value={id}
              rightSection={
                // Inside the tab's own button, so a span that acts as a button (a button may not hold one).
                <CloseButton
                  size="sm"
                  component="span"
                  role="button"
                  tabIndex={0}
                  aria-label={`Close ${names.get(id) ?? id}`}
                  onClick={(event: MouseEvent) => {
                    event.stopPropagation();
                    closeLead(id);
                  }}
                  onKeyDown={(event: KeyboardEvent) => {
                    if (event.key !== 'Enter' && event.key !== ' ') return;
                    event.preventDefault();
                    event.stopPropagation();
                    closeLead(id);
                  }}
                />
              }
            >
              {names.get(id) ?? id}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={LEADS_TAB}>
          <Stack gap="xl">
            <LeadPicker
              leads={leads.data?.records}
              loading={leads.isPending}
              error={leads.error}
              onPick={openLead}
            />
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600}>Approvals</Text>
              </Group>
              <ApprovalCards onOpen={openLead} />
            </Stack>
          </Stack>
        </Tabs.Panel>
        {open.map((id) => (
          <Tabs.Panel key={id} value={id}>
            <LeadDetail leadId={id} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
