import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Indicator,
  Popover,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { ColumnDef, FilterState } from '@paydesk/domain';
import { IconFilter } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { parseDateRange, parseRange } from './tableState';

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

  let draft: { ok: true; value: FilterState } | { ok: false; error: string };
  switch (column.filter) {
    case 'range':
      draft = parseRange(column.id, low, high, column.min);
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
            <TextInput
              label="Min"
              inputMode="numeric"
              value={low}
              onChange={(e) => setLow(e.currentTarget.value)}
              data-autofocus
              w={110}
            />
            <TextInput
              label="Max"
              inputMode="numeric"
              value={high}
              onChange={(e) => setHigh(e.currentTarget.value)}
              w={110}
            />
          </Group>
        )}
        {column.filter === 'range' && (
          <Text fz="xs" c="dimmed">
            Whole numbers; leave a box empty for no limit.
          </Text>
        )}
        {column.filter === 'dateRange' && (
          <Stack gap={6}>
            <TextInput
              type="date"
              label="From"
              value={low}
              onChange={(e) => setLow(e.currentTarget.value)}
              data-autofocus
            />
            <TextInput type="date" label="To" value={high} onChange={(e) => setHigh(e.currentTarget.value)} />
          </Stack>
        )}
        {column.filter === 'select' && (
          <Checkbox.Group value={values} onChange={setValues} label="Show rows with">
            <Stack gap={6} mt={6}>
              {(column.options ?? []).map((option) => (
                <Checkbox key={option} value={option} label={option} />
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
