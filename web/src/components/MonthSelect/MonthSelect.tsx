import { ActionIcon, Group, Select } from '@mantine/core';
import { addMonths, monthLabel, monthRange } from '@paydesk/domain';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';

interface MonthSelectProps {
  /** 'YYYY-MM-01' */
  value: string;
  onChange: (month: string) => void;
  /** First and last months offered, 'YYYY-MM-01'. */
  min: string;
  max: string;
  label?: string;
}

/** A month between min and max, newest first, with previous/next buttons that stop at both ends. */
export function MonthSelect({ value, onChange, min, max, label = 'Month' }: MonthSelectProps) {
  const data = useMemo(
    () =>
      monthRange(min, max)
        .reverse()
        .map((month) => ({ value: month, label: monthLabel(month) })),
    [min, max],
  );
  return (
    <Group gap={6} wrap="nowrap" align="flex-end">
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Previous month"
        disabled={value <= min}
        onClick={() => onChange(addMonths(value, -1))}
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      <Select
        aria-label={label}
        data={data}
        value={value}
        onChange={(month) => month && onChange(month)}
        allowDeselect={false}
        searchable
        w={190}
        maxDropdownHeight={320}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Next month"
        disabled={value >= max}
        onClick={() => onChange(addMonths(value, 1))}
      >
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}
