import { Group, Text, Title } from '@mantine/core';
import { monthLabel } from '@paydesk/domain';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { AverageCards } from './AverageCards';
import { FilterBar } from './FilterBar';
import { averageHeader, averageWindow, selectionCount } from './financialModel';
import { MonthlyChart } from './MonthlyChart';
import { useFinancial } from './useFinancial';

/** Spec document 1 §2 "Financial dashboard": filters, four averages and the monthly bars. */
export default function FinancialScreen() {
  const user = useSessionUser();
  const f = useFinancial();
  const { start, end } = averageWindow(f.selectedMonth, f.current);
  const period =
    f.selectedMonth === null
      ? `${monthLabel(start)} to ${monthLabel(end)}`
      : monthLabel(start) === monthLabel(f.current)
        ? `${monthLabel(start)} so far`
        : monthLabel(start);
  return (
    <>
      <PageHeader
        title="Financial"
        description={
          <>
            Volume, transactions, income and account age of the merchants you choose.{' '}
            {user.iso ? `Figures for ${user.iso.name} only.` : ''}
          </>
        }
      />
      <FilterBar
        options={f.options.data}
        loading={f.options.loading}
        failed={f.options.failed}
        selection={f.selection}
        onChange={f.setSelection}
      />
      <Group justify="space-between" align="baseline" mb="xs" gap="xs">
        <Title order={2} fz="lg" data-testid="average-header">
          {averageHeader(f.selectedMonth)}
        </Title>
        <Text fz="sm" c="dimmed" data-testid="average-period">
          {period}, per merchant and month
        </Text>
      </Group>
      <AverageCards
        filtered={f.average.filtered}
        all={f.average.all}
        everyone={selectionCount(f.selection) === 0}
        loading={f.average.loading}
        stale={f.average.stale}
        failed={f.average.failed}
      />
      <MonthlyChart
        rows={f.series.rows}
        current={f.current}
        selectedMonth={f.selectedMonth}
        onMonth={f.clickMonth}
        onBlank={f.clearMonth}
        loading={f.series.loading}
        stale={f.series.stale}
        failed={f.series.failed}
      />
    </>
  );
}
