import { Button, Group, Tabs, Text } from '@mantine/core';
import { type MonthlyGraphRow, monthLabel } from '@paydesk/domain';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { barOption, EChart } from '../../components/charts';
import { DashCard } from '../../components/DashCard';
import { MEASURE_COLORS } from './AverageCards';
import {
  AXIS_UNITS,
  axisLabel,
  chartWindow,
  MEASURE_LABELS,
  MEASURES,
  type Measure,
  type SelectedMonth,
  valueLabel,
} from './financialModel';

interface MonthlyChartProps {
  rows: MonthlyGraphRow[] | undefined;
  current: string;
  selectedMonth: SelectedMonth;
  onMonth: (month: string) => void;
  onBlank: () => void;
  loading: boolean;
  stale: boolean;
  failed: boolean;
}

const SHORT = (month: string) =>
  new Date(`${month}T00:00:00Z`).toLocaleString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Lighter shade of a colour for the bars not selected. */
const FADED: Record<Measure, string> = { Volume: '#a5d8ff', Transactions: '#96f2d7', Income: '#d0bfff' };
const DARK: Record<Measure, string> = { Volume: '#1864ab', Transactions: '#087f5b', Income: '#5f3dc4' };

/** The monthly series as tabbed bars; a bar click picks its month for the averages. */
export function MonthlyChart({
  rows,
  current,
  selectedMonth,
  onMonth,
  onBlank,
  loading,
  stale,
  failed,
}: MonthlyChartProps) {
  const [measure, setMeasure] = useState<Measure>('Volume');
  const months = useMemo(() => rows?.map((r) => `${r.Year_Months}-01`) ?? [], [rows]);
  // The window the user panned or zoomed to, kept when the option is rebuilt (a click, another tab).
  const zoomed = useRef<{ start: number; end: number } | null>(null);
  const onZoom = useCallback((window: { start: number; end: number }) => {
    zoomed.current = window;
  }, []);

  const option = useMemo(() => {
    if (!rows) return undefined;
    const window = chartWindow(months, current);
    const values = rows.map((r) => Number(r[measure]));
    return barOption({
      categories: months.map(SHORT),
      bars: [
        {
          name: MEASURE_LABELS[measure],
          values,
          color: MEASURE_COLORS[measure],
          colors: months.map((m) =>
            selectedMonth === null
              ? MEASURE_COLORS[measure]
              : m === selectedMonth
                ? DARK[measure]
                : FADED[measure],
          ),
        },
      ],
      legend: false,
      format: { axis: (v) => axisLabel(measure, v), value: (v) => valueLabel(measure, v) },
      valueAxisName: AXIS_UNITS[measure],
      zoom: {
        ...(zoomed.current ?? { startValue: window.startValue, endValue: window.endValue }),
        minValueSpan: window.minValueSpan,
      },
    });
  }, [rows, months, current, measure, selectedMonth]);

  const empty = rows?.every((r) => Number(r.Volume) === 0 && r.Transactions === 0);
  const onItem = useCallback(
    ({ dataIndex }: { dataIndex: number }) => {
      const month = months[dataIndex];
      if (month) onMonth(month);
    },
    [months, onMonth],
  );

  return (
    <DashCard
      title="By month"
      subtitle="Click a bar to average that month alone; click it again, or empty space, for the 12 months. Drag or scroll to pan and zoom."
      loading={loading}
      failed={failed}
      skeleton={320}
      testId="card-monthly"
      actions={
        selectedMonth && (
          <Button
            variant="light"
            size="compact-sm"
            leftSection={<IconArrowBackUp size={14} />}
            onClick={onBlank}
          >
            Back to 12 Month Average
          </Button>
        )
      }
    >
      <Tabs value={measure} onChange={(v) => v && setMeasure(v as Measure)} keepMounted={false}>
        <Tabs.List mb="sm">
          {MEASURES.map((m) => (
            <Tabs.Tab key={m} value={m}>
              {MEASURE_LABELS[m]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {MEASURES.map((m) => (
          <Tabs.Panel key={m} value={m}>
            {empty ? (
              <Text c="dimmed" fz="sm" py={80} ta="center" data-testid="monthly-empty">
                No merchant activity for these filters in the months shown.
              </Text>
            ) : (
              option &&
              rows && (
                <div style={{ opacity: stale ? 0.5 : 1, transition: 'opacity 150ms' }}>
                  <EChart
                    option={option}
                    height={340}
                    label={`${MEASURE_LABELS[m]} by month: ${rows.map((r) => `${monthLabel(`${r.Year_Months}-01`)} ${valueLabel(m, r[m])}`).join(', ')}`}
                    onItemClick={onItem}
                    onBlankClick={onBlank}
                    onZoom={onZoom}
                  />
                </div>
              )
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
      <Group justify="flex-end">
        <Text fz="xs" c="dimmed">
          Totals of the filtered merchants; {monthLabel(current)} so far.
        </Text>
      </Group>
    </DashCard>
  );
}
