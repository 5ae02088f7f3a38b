import { Box, Grid, Group, Paper, SegmentedControl, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { DealsPanel } from './DealsPanel';
import { ExecCards } from './ExecCards';
import { ExecFilters } from './ExecFilters';
import { IsoList } from './IsoList';
import { MccList } from './MccList';
import { ShareBadges } from './ShareBadges';
import { TrendChart } from './TrendChart';
import { useExec } from './useExec';
import { VolumePie } from './VolumePie';

// How each Merchant-tab average is taken (execFigures): over the most merchants active in one month (or day) of
// the period, so a merchant active all year counts once.
const MERCHANT_HELP = {
  volume: 'The period’s volume divided by the most merchants that processed in any one month (or day) of it.',
  transactions:
    'The period’s transactions divided by the most merchants that processed in any one month (or day) of it.',
  avgTicket: 'Volume divided by transactions: the same per merchant as for the ISO.',
  chargebacks:
    'The period’s chargebacks (amount and count) divided by the most merchants that processed in any one month (or day) of it.',
  income:
    'The period’s gross and net income divided by the most merchants that earned income in any one month of it.',
};

const MEASURES = {
  volume: { label: 'Volume', color: '#1c7ed6' },
  transactions: { label: 'Transactions', color: '#0ca678' },
  net: { label: 'Net income', color: '#7048e8' },
} as const;
type Measure = keyof typeof MEASURES;

function Section({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: React.ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" h="100%" component="section" aria-label={title}>
      <Title order={2} fz="md" fw={650}>
        {title}
      </Title>
      {subtitle && (
        <Text fz="xs" c="dimmed">
          {subtitle}
        </Text>
      )}
      <Box mt="sm">{children}</Box>
    </Paper>
  );
}

/** Spec 3 §2.1: the executive ISO screen, for holders of the Business Intelligence capability. */
export default function BiScreen() {
  const e = useExec();
  const [measure, setMeasure] = useState<Measure>('volume');
  const series = e.series?.[measure];
  return (
    <>
      <PageHeader
        title="Business Intelligence"
        description="How each ISO does: volume, income, deals and MCCs."
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <IsoList names={e.isos} selected={e.iso} onSelect={e.selectIso} height={680} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="md">
            <Stack gap={6}>
              <Title order={2} fz={22} data-testid="iso-title">
                {e.iso ?? 'Choose an ISO'}
              </Title>
              {e.info && <ShareBadges badges={e.info.badges} approved={e.info.approved_deals} />}
            </Stack>
            <Tabs value={e.tab} onChange={(t) => t && e.setTab(t as 'iso' | 'merchant')} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="iso">ISO</Tabs.Tab>
                <Tabs.Tab value="merchant">Merchant</Tabs.Tab>
              </Tabs.List>
            </Tabs>
            <ExecFilters
              value={e.filters}
              years={e.years}
              months={e.monthNames}
              mccs={e.mccOptions}
              onChange={e.changeFilter}
            />
            <Text fz="sm" c="dimmed" data-testid="exec-period">
              {e.periodLabel}
            </Text>
            <ExecCards
              figures={e.tab === 'iso' ? e.figures?.iso : e.figures?.perMerchant}
              perMerchant={e.tab === 'merchant'}
              money={e.money}
              count={e.count}
              loading={e.loading}
              failed={e.failed}
              help={MERCHANT_HELP}
            />
            {e.tab === 'merchant' && (
              <Text fz="sm" c="dimmed">
                The ISO’s figures above, as averages per merchant; the info icon on each card says how each is
                taken.
              </Text>
            )}
            {e.tab === 'iso' && (
              <>
                <Grid gap="md">
                  <Grid.Col span={{ base: 12, lg: 4 }}>
                    <Section title="Volume and chargebacks">
                      {e.figures && (
                        <VolumePie
                          volume={e.figures.iso.volume}
                          chargebacks={e.figures.iso.chargebackVolume}
                          money={e.money}
                          height={260}
                        />
                      )}
                    </Section>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, lg: 8 }}>
                    <Section
                      title={`${MEASURES[measure].label}, ${e.view === 'daily' ? 'daily' : 'monthly'}`}
                    >
                      <Group justify="flex-end" mt={-36} mb={4}>
                        <SegmentedControl
                          size="xs"
                          value={measure}
                          onChange={(m) => setMeasure(m as Measure)}
                          data={Object.entries(MEASURES).map(([value, m]) => ({ value, label: m.label }))}
                        />
                      </Group>
                      {series && (
                        <TrendChart
                          categories={series.categories}
                          name={MEASURES[measure].label}
                          values={series.values}
                          trend={series.trend}
                          color={MEASURES[measure].color}
                          format={measure === 'transactions' ? e.count : e.money}
                          height={260}
                          label={`${MEASURES[measure].label} ${e.view === 'daily' ? 'by day' : 'by month'}`}
                        />
                      )}
                      {e.chartNote && (
                        <Text fz="sm" c="dimmed" ta="center" data-testid="chart-note">
                          {e.chartNote}
                        </Text>
                      )}
                    </Section>
                  </Grid.Col>
                </Grid>
                <Grid gap="md">
                  <Grid.Col span={{ base: 12, lg: 6 }}>
                    <Section title="Deals" subtitle="Approved merchants of the ISO, open and closed, by age">
                      {e.info && <DealsPanel info={e.info} buckets={e.ageBuckets} />}
                    </Section>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, lg: 6 }}>
                    <Section title="MCC share" subtitle="The ISO’s merchants by merchant category code">
                      {e.mcc && <MccList rows={e.mcc} />}
                    </Section>
                  </Grid.Col>
                </Grid>
              </>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
