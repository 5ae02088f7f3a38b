import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Indicator,
  NumberInput,
  Popover,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type ColumnDef, type FilterState, rangeLimits } from '@paydesk/domain';
import { IconFilter } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { DATE_FORMAT, parseDateRange, parseRange } from './tableState';

interface FilterPopoverProps {
  column: ColumnDef;
  filter: FilterState | undefined;
  onApply: (filter: FilterState | null) => void;
}

/** One column's filter, by the column's filter kind. The draft is applied with Apply (or Enter). */
export function FilterPopover({ column, filter, onApply }: FilterPopoverProps) {
  const [opened, setOpened] = useState(false);
  const active = filter !== undefined;
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" withArrow trapFocus>
      <Popover.Target>
        <Indicator disabled={!active} size={7} offset={4} color="indigo">
          <ActionIcon
            variant={active ? 'light' : 'subtle'}
            color={active ? 'indigo' : 'gray'}
            size="sm"
            aria-label={`Filter ${column.label}`}
            onClick={() => setOpened((o) => !o)}
          >
            <IconFilter size={14} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown miw={240}>
        {opened && (
          <FilterForm
            column={column}
            filter={filter}
            onApply={(next) => {
              onApply(next);
              setOpened(false);
            }}
          />
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

function FilterForm({ column, filter, onApply }: FilterPopoverProps) {
  const [text, setText] = useState(filter?.kind === 'text' ? filter.value : '');
  const [low, setLow] = useState(() => {
    if (filter?.kind === 'range') return filter.min === null ? '' : String(filter.min);
    if (filter?.kind === 'dateRange') return filter.from ?? '';
    return '';
  });
  const [high, setHigh] = useState(() => {
    if (filter?.kind === 'range') return filter.max === null ? '' : String(filter.max);
    if (filter?.kind === 'dateRange') return filter.to ?? '';
    return '';
  });
  const [values, setValues] = useState<string[]>(filter?.kind === 'select' ? filter.values : []);
  const limits = rangeLimits(column);
  // Counts take whole numbers from 0: the boxes refuse a minus sign or a decimal point as typed.
  const numberProps = {
    min: limits.min,
    max: limits.max,
    allowDecimal: false,
    allowNegative: limits.min < 0,
    clampBehavior: 'none',
    hideControls: true,
    inputMode: 'numeric',
  } as const;
  const dateProps = { inputMode: 'numeric', autoComplete: 'off', spellCheck: false } as const;

  let draft: { ok: true; value: FilterState } | { ok: false; error: string };
  switch (column.filter) {
    case 'range':
      draft = parseRange(column.id, low, high, limits);
      break;
    case 'dateRange':
      draft = parseDateRange(column.id, low, high);
      break;
    case 'select':
      draft = { ok: true, value: { id: column.id, kind: 'select', values } };
      break;
    default:
      draft = { ok: true, value: { id: column.id, kind: 'text', value: text.trim() } };
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.ok) onApply(draft.value);
  };

  return (
    <form onSubmit={submit} aria-label={`Filter ${column.label}`}>
      <Stack gap="xs">
        <Text fz="sm" fw={600}>
          {column.label}
        </Text>
        {column.filter === 'text' && (
          <TextInput
            label="Starts with"
            description="Not case-sensitive"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-autofocus
            maxLength={100}
          />
        )}
        {column.filter === 'range' && (
          <Group gap="xs" grow wrap="nowrap">
            <NumberInput
              label="Min"
              value={low}
              onChange={(value) => setLow(String(value))}
              data-autofocus
              w={120}
              {...numberProps}
            />
            <NumberInput
              label="Max"
              value={high}
              onChange={(value) => setHigh(String(value))}
              w={120}
              {...numberProps}
            />
          </Group>
        )}
        {column.filter === 'range' && (
          <Text fz="xs" c="dimmed">
            {limits.min === 0 ? 'Whole numbers, 0 or more' : 'Whole numbers'}; leave a box empty for no limit.
          </Text>
        )}
        {column.filter === 'dateRange' && (
          <Stack gap={6}>
            <TextInput
              label="From"
              placeholder={DATE_FORMAT}
              value={low}
              onChange={(e) => setLow(e.currentTarget.value)}
              data-autofocus
              maxLength={10}
              {...dateProps}
            />
            <TextInput
              label="To"
              placeholder={DATE_FORMAT}
              value={high}
              onChange={(e) => setHigh(e.currentTarget.value)}
              maxLength={10}
              {...dateProps}
            />
            <Text fz="xs" c="dimmed">
              Dates as {DATE_FORMAT}, like the table; the end date counts to the end of its day.
            </Text>
          </Stack>
        )}
        {column.filter === 'select' && (
          <Checkbox.Group value={values} onChange={setValues} label="Show rows with">
            <Stack gap={6} mt={6}>
              {(column.options ?? []).map((option) => (
                <Checkbox key={option} value={option} label={column.optionLabels?.[option] ?? option} />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        {!draft.ok && (
          <Text fz="xs" c="red" role="alert">
            {draft.error}
          </Text>
        )}
        <Group justify="space-between" gap="xs" mt={4}>
          <Button variant="subtle" color="gray" size="xs" onClick={() => onApply(null)}>
            Clear
          </Button>
          <Button type="submit" size="xs" disabled={!draft.ok}>
            Apply
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
