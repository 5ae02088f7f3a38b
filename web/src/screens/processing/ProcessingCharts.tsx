import { Text } from '@mantine/core';
import { type ActivationRow, monthLabel, type ProcessingInfo } from '@paydesk/domain';
import { useMemo } from 'react';
import {
  BANK_COLORS,
  type BarSeries,
  barOption,
  type ChartValue,
  EChart,
  type LineSeries,
  PROFILE_COLORS,
} from '../../components/charts';
import { DashCard } from '../../components/DashCard';
import { dayLinesOption } from './lineChart';
import {
  activationsByMonth,
  averageDaily,
  bankSeries,
  budgetByMonth,
  dailyEmptyText,
  dailySeries,
  dollars,
  type NamedSeries,
  nothingToDraw,
  profileSeries,
  shortMonth,
  volumeLabel,
  yearMonths,
} from './processingModel';

const VOLUME_FORMAT = { axis: volumeLabel, value: dollars };
const OTHER_COLORS = ['#495057', '#ae3ec9', '#f59f00', '#0ca678'];
const BUDGET_COLOR = '#f08c00';
const VOLUME_COLOR = '#1c7ed6';
const HEIGHT = 300;

interface State {
  loading: boolean;
  stale: boolean;
  failed: boolean;
}

function colored(series: NamedSeries[], colors: Record<string, string>): BarSeries[] {
  let other = 0;
  return series.map((s) => ({
    name: s.name,
    values: s.values,
    stack: 'volume',
    color: colors[s.name] ?? OTHER_COLORS[other++ % OTHER_COLORS.length] ?? '#495057',
  }));
}

/** What a chart shows, in words (for assistive technology and the browser tests). */
const described = (
  title: string,
  categories: readonly string[],
  series: { name: string; values: readonly ChartValue[] }[],
  format: (v: number) => string,
) =>
  `${title}: ${series
    .map(
      (s) =>
        `${s.name} ${categories
          .flatMap((c, i) => {
            const v = s.values[i];
            return v === null || v === undefined ? [] : [`${c} ${format(v)}`];
          })
          .join(', ')}`,
    )
    .join('; ')}`;

function ChartBody({
  empty,
  emptyText,
  stale,
  compact,
  children,
}: {
  empty: boolean;
  emptyText: string;
  stale: boolean;
  /** A full-width card need not keep a chart's height when empty: no neighbour to line up with. */
  compact?: boolean;
  children: React.ReactNode;
}) {
  if (empty)
    return (
      <Text c="dimmed" fz="sm" ta="center" py={compact ? 'xl' : HEIGHT / 2 - 20} data-testid="chart-empty">
        {emptyText}
      </Text>
    );
  return <div style={{ opacity: stale ? 0.5 : 1, transition: 'opacity 150ms' }}>{children}</div>;
}

/** The dashboard month day by day: volume, the budget spread over the month, and last year's benchmarks. */
export function DailyCard({ info, ...state }: State & { info: ProcessingInfo | undefined }) {
  const daily = useMemo(() => (info ? dailySeries(info) : null), [info]);
  const lines = useMemo(
    () =>
      daily
        ? [
            { name: 'Volume', values: daily.volume, color: VOLUME_COLOR },
            { name: 'Budget', values: daily.budget, color: BUDGET_COLOR, reference: true },
            { name: 'Same day last year', values: daily.benchmark, color: '#868e96', reference: true },
            {
              name: 'Last year, same merchants',
              values: daily.benchmarkSameMerchants,
              color: '#7048e8',
              reference: true,
            },
          ].filter((line) => line.values.some((v) => v !== null))
        : [],
    [daily],
  );
  const month = info ? info.headline.month : null;
  return (
    <DashCard
      title="Daily volume"
      subtitle={
        month
          ? `${monthLabel(month)} day by day${lines.some((l) => l.name === 'Budget') ? ', against the budget per day' : ''}, with the same weekday a year earlier (all merchants, and only the merchants processing this month).`
          : undefined
      }
      testId="card-daily"
      skeleton={HEIGHT}
      {...state}
    >
      {info && daily && (
        <ChartBody
          empty={info.daily.length === 0}
          emptyText={dailyEmptyText(info)}
          stale={state.stale}
          compact
        >
          <EChart
            option={dayLinesOption({ categories: daily.categories, lines, format: VOLUME_FORMAT })}
            height={HEIGHT}
            label={described(
              'Daily volume',
              daily.categories,
              // Described: the volume and the budget; the benchmarks would make the text too long to follow.
              lines.filter((l) => l.name === 'Volume' || l.name === 'Budget'),
              volumeLabel,
            )}
          />
        </ChartBody>
      )}
    </DashCard>
  );
}

interface MonthlyBarsProps extends State {
  title: string;
  subtitle: string;
  testId: string;
  year: number;
  bars: BarSeries[] | null;
  lines?: LineSeries[];
  counts?: boolean;
  emptyText: string;
}

function MonthlyBarsCard({
  title,
  subtitle,
  testId,
  year,
  bars,
  lines,
  counts,
  emptyText,
  ...state
}: MonthlyBarsProps) {
  const categories = useMemo(() => yearMonths(year).map(shortMonth), [year]);
  const option = useMemo(
    () =>
      bars
        ? barOption({
            categories,
            bars,
            lines,
            legend: bars.length + (lines?.length ?? 0) > 1,
            ...(counts ? {} : { format: VOLUME_FORMAT }),
          })
        : null,
    [bars, lines, categories, counts],
  );
  const format = counts ? (v: number) => v.toLocaleString('en-US') : volumeLabel;
  return (
    <DashCard title={title} subtitle={subtitle} testId={testId} skeleton={HEIGHT} {...state}>
      {bars && option && (
        <ChartBody
          empty={bars.every((b) => nothingToDraw([...b.values]))}
          emptyText={emptyText}
          stale={state.stale}
        >
          <EChart
            option={option}
            height={HEIGHT}
            label={described(title, categories, [...bars, ...(lines ?? [])], format)}
          />
        </ChartBody>
      )}
    </DashCard>
  );
}

export function BankCard({
  info,
  year,
  ...state
}: State & { info: ProcessingInfo | undefined; year: number }) {
  const months = useMemo(() => yearMonths(year), [year]);
  const bars = useMemo(() => (info ? colored(bankSeries(info, months), BANK_COLORS) : null), [info, months]);
  const lines = useMemo(() => {
    const budget = info ? budgetByMonth(info, months) : [];
    return budget.some((b) => b !== null) ? [{ name: 'Budget', values: budget, color: BUDGET_COLOR }] : [];
  }, [info, months]);
  return (
    <MonthlyBarsCard
      title="Monthly volume by bank"
      subtitle={`${year}, stacked by sponsor bank${lines.length > 0 ? ', with the budget of all banks' : ''}.`}
      testId="card-bank"
      year={year}
      bars={bars}
      lines={lines}
      emptyText="No volume in this year."
      {...state}
    />
  );
}

export function AverageCard({
  info,
  year,
  ...state
}: State & { info: ProcessingInfo | undefined; year: number }) {
  const months = useMemo(() => yearMonths(year), [year]);
  const bars = useMemo(
    () =>
      info ? [{ name: 'Average daily volume', values: averageDaily(info, months), color: '#1098ad' }] : null,
    [info, months],
  );
  return (
    <MonthlyBarsCard
      title="Monthly average daily volume"
      subtitle={`${year}: each month's volume divided by its days with figures.`}
      testId="card-average"
      year={year}
      bars={bars}
      emptyText="No volume in this year."
      {...state}
    />
  );
}

export function ProfileCard({
  info,
  year,
  ...state
}: State & { info: ProcessingInfo | undefined; year: number }) {
  const months = useMemo(() => yearMonths(year), [year]);
  const bars = useMemo(
    () => (info ? colored(profileSeries(info, months), PROFILE_COLORS) : null),
    [info, months],
  );
  return (
    <MonthlyBarsCard
      title="Monthly volume by profile"
      subtitle={`${year}, stacked by merchant profile.`}
      testId="card-profile"
      year={year}
      bars={bars}
      emptyText="No volume in this year."
      {...state}
    />
  );
}

export function ActivationCard({
  rows,
  month,
  year,
  ...state
}: State & { rows: ActivationRow[] | undefined; month: string; year: number }) {
  const months = useMemo(() => yearMonths(year), [year]);
  const bars = useMemo(
    () =>
      rows
        ? [
            {
              name: 'Activations',
              values: activationsByMonth(rows, months, month),
              color: '#2f9e44',
              labels: true,
            },
          ]
        : null,
    [rows, months, month],
  );
  return (
    <MonthlyBarsCard
      title="Activations per month"
      subtitle={`${year}: merchants activated each month.`}
      testId="card-activations"
      year={year}
      bars={bars}
      counts
      emptyText="No merchant was activated in this year."
      {...state}
    />
  );
}
