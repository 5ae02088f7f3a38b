import { Box, Group, RingProgress, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import type { AverageRow } from '@paydesk/domain';
import { DashCard } from '../../components/DashCard';
import { formatMoney } from '../../components/format';
import { shareOfAll } from './financialModel';

export const MEASURE_COLORS = {
  Volume: '#1c7ed6',
  Transactions: '#0ca678',
  Income: '#7048e8',
  Average_Age: '#f08c00',
} as const;

interface CardSpec {
  key: keyof AverageRow;
  title: string;
  unit: string;
  format: (value: string) => string;
  testId: string;
}

const CARDS: readonly CardSpec[] = [
  {
    key: 'Volume',
    title: 'Volume',
    unit: 'per merchant a month',
    format: (v) => `$${formatMoney(v)}`,
    testId: 'avg-volume',
  },
  {
    key: 'Transactions',
    title: 'Transactions',
    unit: 'per merchant a month',
    format: (v) => formatMoney(v),
    testId: 'avg-transactions',
  },
  {
    key: 'Income',
    title: 'Net income',
    unit: 'per merchant a month (gross less expenses)',
    format: (v) => `$${formatMoney(v)}`,
    testId: 'avg-income',
  },
  {
    key: 'Average_Age',
    title: 'Age in months',
    unit: 'since the account opened',
    format: (v) => Number(v).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    testId: 'avg-age',
  },
];

interface AverageCardsProps {
  filtered: AverageRow | undefined;
  all: AverageRow | undefined;
  /** True when no filter is chosen: the filtered merchants are all merchants. */
  everyone: boolean;
  loading: boolean;
  stale: boolean;
  failed: boolean;
}

/**
 * The four averages, each as a big figure and a ring comparing the filtered merchants' average with the
 * average over all merchants (100% = the same; beyond 100% the ring is full and the label says how far).
 * It compares averages, not a part with the whole, so it is labelled "of the all-merchant average".
 */
export function AverageCards({ filtered, all, everyone, loading, stale, failed }: AverageCardsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" mb="md">
      {CARDS.map((card) => {
        const value = filtered?.[card.key];
        const reference = all?.[card.key];
        const share =
          value !== undefined && reference !== undefined
            ? shareOfAll(Number(value), Number(reference))
            : null;
        const color = MEASURE_COLORS[card.key];
        return (
          <DashCard
            key={card.key}
            title={card.title}
            subtitle={card.unit}
            loading={loading}
            failed={failed}
            skeleton={120}
            testId={`card-${card.testId}`}
          >
            {value !== undefined && (
              <Group
                wrap="nowrap"
                justify="space-between"
                gap="sm"
                style={{ opacity: stale ? 0.5 : 1, transition: 'opacity 150ms' }}
              >
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Text
                    fz={24}
                    fw={750}
                    lh={1.1}
                    c={color}
                    data-testid={card.testId}
                    style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
                  >
                    {card.format(value)}
                  </Text>
                </Stack>
                <Tooltip
                  label={
                    share === null
                      ? 'No merchant activity to compare with'
                      : `The filtered merchants’ average is ${share}% of the average over all merchants. It compares averages, so it can exceed 100%.`
                  }
                  withArrow
                >
                  <Box style={{ flex: 'none' }}>
                    <RingProgress
                      size={84}
                      thickness={9}
                      roundCaps
                      aria-label={`${card.title}: ${share === null ? 'no comparison' : `${share}% of the all-merchant average`}`}
                      sections={share === null ? [] : [{ value: Math.min(100, share), color }]}
                      label={
                        <Stack gap={0} align="center">
                          <Text fz={14} fw={700} lh={1} data-testid={`${card.testId}-share`}>
                            {share === null ? '—' : `${share}%`}
                          </Text>
                          <Text fz={9} c="dimmed" lh={1.3}>
                            of avg.
                          </Text>
                        </Stack>
                      }
                    />
                  </Box>
                </Tooltip>
              </Group>
            )}
            {value !== undefined && (
              <Text fz="xs" c="dimmed" mt={4} data-testid={`${card.testId}-all`}>
                {everyone
                  ? 'All merchants (no filter)'
                  : `All-merchant average: ${reference === undefined ? '—' : card.format(reference)}`}
              </Text>
            )}
          </DashCard>
        );
      })}
    </SimpleGrid>
  );
}
