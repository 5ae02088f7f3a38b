import { Group, RingProgress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { monthLabel, type ProcessingHeadline } from '@paydesk/domain';
import { DashCard } from '../../components/DashCard';
import { budgetColor, dayLabel, dollars, trendingNote, volumeLabel } from './processingModel';

interface HeadlineCardProps {
  /** False for partner staff: budgets are the processor's targets for all ISOs, not shown per ISO. */
  budgets: boolean;
  headline: ProcessingHeadline | undefined;
  live: boolean;
  loading: boolean;
  stale: boolean;
  failed: boolean;
}

function Amount({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: number;
  note: string;
  testId: string;
}) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.3 }}>
        {label}
      </Text>
      <Tooltip label={dollars(value)} withArrow position="top-start">
        <Text
          fz={30}
          fw={700}
          lh={1.1}
          data-testid={testId}
          aria-label={`${label}: ${dollars(value)}`}
          style={{ fontVariantNumeric: 'tabular-nums', width: 'fit-content' }}
        >
          {volumeLabel(value)}
        </Text>
      </Tooltip>
      <Text fz="xs" c="dimmed">
        {note}
      </Text>
    </Stack>
  );
}

/** Month-to-date volume, the trending (projected) month volume, the budget and how the trend compares with it. */
export function HeadlineCard({ headline: h, budgets, live, loading, stale, failed }: HeadlineCardProps) {
  const percent = h?.budgetPercent ?? null;
  const color = budgetColor(percent);
  const month = h ? monthLabel(h.month) : '';
  const over = h?.basis === 'complete';
  return (
    <DashCard
      title={h ? `${month}${live && !over ? ' so far' : ''}` : 'This month'}
      subtitle={
        h &&
        (h.asOf
          ? over
            ? `The whole month, ${dayLabel(h.month)} – ${dayLabel(h.asOf)}${budgets ? ', against its budget' : ''}.`
            : `Figures through ${dayLabel(h.asOf)}; the trend${budgets ? ' and the budget cover' : ' covers'} the whole month.`
          : 'No figures for this month yet.')
      }
      loading={loading}
      failed={failed}
      skeleton={110}
      testId="card-headline"
    >
      {h && (
        <Group
          justify="space-between"
          wrap="nowrap"
          gap="xl"
          align="center"
          style={{ opacity: stale ? 0.5 : 1, transition: 'opacity 150ms' }}
        >
          <SimpleGrid cols={budgets ? 3 : 2} spacing="xl" style={{ flex: 1 }}>
            <Amount
              label={over ? 'Month volume' : 'Month to date'}
              value={h.monthToDate}
              testId="headline-mtd"
              note={h.asOf ? `${dayLabel(h.month)} – ${dayLabel(h.asOf)}, ${h.elapsedDays} days` : '—'}
            />
            {over ? (
              // A month that is over has no projection: its trend is its volume, shown once, so the second figure
              // is the daily average that volume came from.
              <Amount
                label="Average daily volume"
                value={h.averageDaily}
                testId="headline-average"
                note={trendingNote(h)}
              />
            ) : (
              <Amount label="Trending" value={h.trending} testId="headline-trending" note={trendingNote(h)} />
            )}
            {budgets && (
              <Amount
                label="Budget"
                value={h.budget}
                testId="headline-budget"
                note={h.budget > 0 ? `All banks, ${h.periodDays} days` : 'No budget set for this month'}
              />
            )}
          </SimpleGrid>
          {budgets && (
            <RingProgress
              size={140}
              thickness={12}
              roundCaps
              sections={[{ value: Math.min(100, percent ?? 0), color }]}
              label={
                <Stack gap={0} align="center">
                  <Text fz={20} fw={750} c={`${color}.8`} lh={1} data-testid="headline-percent">
                    {percent === null ? '—' : `${percent.toLocaleString('en-US')}%`}
                  </Text>
                  <Text fz={11} c="dimmed">
                    of budget
                  </Text>
                </Stack>
              }
            />
          )}
        </Group>
      )}
    </DashCard>
  );
}
