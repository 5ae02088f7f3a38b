import { Button, Group, Select } from '@mantine/core';
import type { ExecFilterChange, ExecFilterView, ExecPeriod } from '@paydesk/domain';

interface ExecFiltersProps {
  value: ExecFilterView;
  years: readonly number[];
  months: readonly string[];
  mccs: readonly { value: string; label: string }[];
  onChange: (change: ExecFilterChange) => void;
}

const PERIODS: readonly { value: ExecPeriod; label: string }[] = [
  { value: 'last12Months', label: 'Last 12 Months' },
  { value: 'last30Days', label: 'Last 30 Days' },
];

/**
 * The executive filters (spec 3 §2.1, §4): a preset window, or a year and a month; and an MCC. What each choice
 * resets is the domain's rule; this only draws the controls.
 */
export function ExecFilters({ value, years, months, mccs, onChange }: ExecFiltersProps) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Button.Group aria-label="Period">
        {PERIODS.map((p) => (
          <Button
            key={p.value}
            size="sm"
            variant={value.period === p.value ? 'filled' : 'default'}
            aria-pressed={value.period === p.value}
            onClick={() => onChange({ kind: 'period', period: p.value })}
          >
            {p.label}
          </Button>
        ))}
      </Button.Group>
      <Select
        label="Year"
        placeholder="Year"
        w={110}
        data={years.map(String)}
        value={value.year === null ? null : String(value.year)}
        onChange={(y) => y && onChange({ kind: 'year', year: Number(y) })}
        allowDeselect={false}
      />
      <Select
        label="Month"
        w={150}
        data={[{ value: '0', label: 'All' }, ...months.map((m, i) => ({ value: String(i + 1), label: m }))]}
        value={String(value.month)}
        onChange={(m) => m && onChange({ kind: 'month', month: Number(m) })}
        disabled={value.year === null}
        allowDeselect={false}
      />
      <Select
        label="MCC"
        w={230}
        data={[{ value: 'All', label: 'All' }, ...mccs]}
        value={value.mcc}
        onChange={(m) => m && onChange({ kind: 'mcc', mcc: m })}
        searchable
        allowDeselect={false}
        maxDropdownHeight={320}
      />
    </Group>
  );
}
