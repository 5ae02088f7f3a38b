import { ActionIcon, Badge, Group, Select } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

interface YearNavProps {
  year: number;
  first: number;
  current: number;
  live: boolean;
  onChange: (year: number) => void;
}

/** Previous and next year, stopping at the floor year and at the current year (spec document 2 §4). */
export function YearNav({ year, first, current, live, onChange }: YearNavProps) {
  const years = Array.from({ length: current - first + 1 }, (_, i) => String(current - i));
  return (
    <Group gap={6} wrap="nowrap" align="center">
      {live ? (
        <Badge color="teal" variant="dot" size="lg" data-testid="live-badge" style={{ flex: 'none' }}>
          Live
        </Badge>
      ) : (
        <Badge color="gray" variant="light" size="lg" data-testid="historic-badge" style={{ flex: 'none' }}>
          Historic
        </Badge>
      )}
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Previous year"
        disabled={year <= first}
        onClick={() => onChange(year - 1)}
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      <Select
        aria-label="Year"
        data={years}
        value={String(year)}
        onChange={(value) => value && onChange(Number(value))}
        allowDeselect={false}
        w={100}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Next year"
        disabled={year >= current}
        onClick={() => onChange(year + 1)}
      >
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}
