import { Grid, Group, MultiSelect, Paper, Text, Title } from '@mantine/core';
import { STATS_FIRST_MONTH } from '@paydesk/domain';
import { useSessionUser } from '../../app/session';
import { MonthSelect } from '../../components/MonthSelect';
import { PageHeader } from '../../components/PageHeader';
import { UsMap } from '../../components/usMap';
import { ApprovalsChart } from './ApprovalsChart';
import { MAX_PARTNER_LINES } from './analyticsModel';
import { StatsTable } from './StatsTable';
import { useIsoAnalytics } from './useIsoAnalytics';

function Panel({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: React.ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={2} fz="md" fw={650}>
        {title}
      </Title>
      <Text fz="xs" c="dimmed" mb="xs">
        {subtitle}
      </Text>
      {children}
    </Paper>
  );
}

/** Spec 2 §2.10 and 3 §2.7: where each partner's merchants are, how fast it approves, and what its deals earn. */
export default function IsoAnalyticsScreen() {
  const user = useSessionUser();
  const a = useIsoAnalytics();
  const chosen =
    a.selection.length === 0
      ? 'all partners'
      : `${a.selection.length} chosen partner${a.selection.length === 1 ? '' : 's'}`;
  return (
    <>
      <PageHeader
        title="ISO Analytics"
        description={
          <>
            Merchants by state, approvals over time and each partner’s statistics.{' '}
            {user.iso ? `Figures for ${user.iso.name} only.` : ''}
          </>
        }
      />
      <Paper withBorder radius="md" p="md" mb="md" component="section" aria-label="Partner groups">
        <MultiSelect
          label="ISO / partner groups"
          placeholder={a.selection.length === 0 ? 'All partners' : undefined}
          description="None chosen: every partner. The choice is kept while this tab is open."
          data={a.options}
          value={a.selection}
          onChange={a.setSelection}
          searchable
          clearable
          nothingFoundMessage="No partner by that name"
          disabled={a.optionsFailed}
          error={a.optionsFailed ? 'The partner list could not be loaded.' : undefined}
          maxDropdownHeight={320}
          hidePickedOptions
        />
      </Paper>
      <Grid gap="md" mb="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Panel title="Merchants by state" subtitle={`Open merchants of ${chosen}`}>
            {a.data ? (
              <UsMap counts={a.data.states} bands={a.bands} height={400} noun="merchants" />
            ) : (
              <Text h={400} c="dimmed" fz="sm">
                {a.failed ? 'The map could not be loaded.' : 'Loading…'}
              </Text>
            )}
          </Panel>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Panel
            title="Approvals over time"
            subtitle={
              a.selection.length === 0 || a.selection.length > MAX_PARTNER_LINES
                ? `Approvals per month, ${chosen}: the ${MAX_PARTNER_LINES - 1} busiest, the rest as one line`
                : `Approvals per month, ${chosen}`
            }
          >
            {a.data ? (
              <ApprovalsChart points={a.data.approvals} height={400} />
            ) : (
              <Text h={400} c="dimmed" fz="sm">
                {a.failed ? 'The approvals could not be loaded.' : 'Loading…'}
              </Text>
            )}
          </Panel>
        </Grid.Col>
      </Grid>
      <StatsTable
        rows={a.data?.stats}
        loading={a.loading}
        failed={a.failed}
        range={
          <Group gap="sm" align="center">
            <Text fz="sm" c="dimmed">
              From
            </Text>
            <MonthSelect
              label="First month"
              value={a.from}
              onChange={a.setFrom}
              min={STATS_FIRST_MONTH}
              max={a.to}
            />
            <Text fz="sm" c="dimmed">
              to
            </Text>
            <MonthSelect label="Last month" value={a.to} onChange={a.setTo} min={a.from} max={a.current} />
          </Group>
        }
      />
    </>
  );
}
