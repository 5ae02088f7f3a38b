import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { filterSourceRequest, pciEndpoints } from '@paydesk/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { call } from '../../app/api';
import { pciKeys } from '../../app/queryKeys';
import {
  emptyFilter,
  type FilterDraft,
  filterDef,
  isBetween,
  isDateFilter,
  withField,
  withOperator,
} from './pciExceptions';

export interface FilterChoice {
  id: number;
  alias: string;
  field_type: string;
}
export interface OperatorChoice {
  id: number;
  alias: string;
  operator_type: string;
}

interface ExceptionGroupsProps<G extends { key: number; filters: FilterDraft[] }> {
  /** "Fee exception": names each group and its controls. */
  noun: string;
  groups: G[];
  onChange: (groups: G[]) => void;
  newGroup: () => G;
  /** The group's outcome (its fee, or its billing type). */
  outcome: (group: G, change: (next: G) => void, n: number) => ReactNode;
  filters: readonly FilterChoice[];
  operators: readonly OperatorChoice[];
  readOnly: boolean;
}

/**
 * Exceptions as groups (spec §4): add a group, add or remove filters in it, remove it. A merchant matches a group
 * when every filter of it matches; the first matching group wins.
 */
export function ExceptionGroups<G extends { key: number; filters: FilterDraft[] }>({
  noun,
  groups,
  onChange,
  newGroup,
  outcome,
  filters,
  operators,
  readOnly,
}: ExceptionGroupsProps<G>) {
  const replace = (i: number, next: G) => onChange(groups.map((g, j) => (j === i ? next : g)));
  return (
    <Stack gap="sm">
      {groups.length === 0 && (
        <Text fz="sm" c="dimmed">
          No exceptions: every merchant gets the default.
        </Text>
      )}
      {groups.map((group, i) => {
        const n = i + 1;
        const setFilters = (list: FilterDraft[]) => replace(i, { ...group, filters: list });
        return (
          <Paper key={group.key} withBorder p="sm" radius="md" aria-label={`${noun} ${n}`} role="group">
            <Group justify="space-between" mb="xs" align="flex-end">
              <Group gap="sm" align="flex-end">
                <Text fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }} pb={6}>
                  {noun} {n}
                </Text>
                {outcome(group, (next) => replace(i, next), n)}
              </Group>
              {!readOnly && (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={14} />}
                  aria-label={`Remove ${noun.toLowerCase()} ${n}`}
                  onClick={() => onChange(groups.filter((_, j) => j !== i))}
                >
                  Remove exception
                </Button>
              )}
            </Group>
            <Stack gap={6}>
              {group.filters.map((filter, k) => (
                <FilterRow
                  key={filter.key}
                  label={`${noun} ${n} filter ${k + 1}`}
                  filter={filter}
                  filters={filters}
                  operators={operators}
                  readOnly={readOnly}
                  onChange={(next) => setFilters(group.filters.map((f, m) => (m === k ? next : f)))}
                  onRemove={() => setFilters(group.filters.filter((_, m) => m !== k))}
                />
              ))}
              {!readOnly && (
                <Group>
                  <Button
                    variant="subtle"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    aria-label={`Add filter to ${noun.toLowerCase()} ${n}`}
                    onClick={() => setFilters([...group.filters, emptyFilter()])}
                  >
                    Add filter
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
        );
      })}
      {!readOnly && (
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => onChange([...groups, newGroup()])}
          >
            Add {noun.toLowerCase()}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function FilterRow({
  label,
  filter,
  filters,
  operators,
  readOnly,
  onChange,
  onRemove,
}: {
  label: string;
  filter: FilterDraft;
  filters: readonly FilterChoice[];
  operators: readonly OperatorChoice[];
  readOnly: boolean;
  onChange: (next: FilterDraft) => void;
  onRemove: () => void;
}) {
  const def = filters.find((f) => f.id === filter.filter_id);
  const wantedType = def ? (def.field_type === 'date' ? 'date' : 'list') : null;
  const offered = operators.filter((o) => o.operator_type === wantedType);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Select
        size="xs"
        w={170}
        aria-label={`${label} field`}
        placeholder="Field"
        data={filters.map((f) => ({ value: String(f.id), label: f.alias }))}
        value={filter.filter_id === null ? null : String(filter.filter_id)}
        onChange={(v) => onChange(withField(filter, v === null ? null : Number(v)))}
        disabled={readOnly}
      />
      <Select
        size="xs"
        w={130}
        aria-label={`${label} operator`}
        placeholder="Operator"
        data={offered.map((o) => ({ value: String(o.id), label: o.alias }))}
        value={filter.filter_operator_id === null ? null : String(filter.filter_operator_id)}
        onChange={(v) => onChange(withOperator(filter, v === null ? null : Number(v)))}
        disabled={readOnly || def === undefined}
      />
      {isDateFilter(filter.filter_id) ? (
        <DateValues filter={filter} label={label} readOnly={readOnly} onChange={onChange} />
      ) : (
        <ListValues filter={filter} label={label} readOnly={readOnly} onChange={onChange} />
      )}
      {!readOnly && (
        <Tooltip label="Remove this filter" withArrow>
          <ActionIcon variant="subtle" color="red" aria-label={`Remove ${label}`} onClick={onRemove} mt={2}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

function DateValues({
  filter,
  label,
  readOnly,
  onChange,
}: {
  filter: FilterDraft;
  label: string;
  readOnly: boolean;
  onChange: (next: FilterDraft) => void;
}) {
  const count = isBetween(filter.filter_operator_id) ? 2 : 1;
  const set = (i: number, value: string) => {
    const values = Array.from({ length: count }, (_, j) => filter.values[j] ?? '');
    values[i] = value;
    onChange({ ...filter, values });
  };
  return (
    <Group gap="xs" wrap="nowrap">
      {Array.from({ length: count }, (_, i) => (
        <TextInput
          // biome-ignore lint/suspicious/noArrayIndexKey: the from and to dates are positions
          key={i}
          size="xs"
          type="date"
          w={150}
          aria-label={`${label} ${count === 2 ? (i === 0 ? 'from' : 'to') : 'date'}`}
          value={filter.values[i] ?? ''}
          onChange={(e) => set(i, e.currentTarget.value)}
          disabled={readOnly}
        />
      ))}
    </Group>
  );
}

/** A list field's values, chosen from the filter's source (its values with their display text). */
function ListValues({
  filter,
  label,
  readOnly,
  onChange,
}: {
  filter: FilterDraft;
  label: string;
  readOnly: boolean;
  onChange: (next: FilterDraft) => void;
}) {
  const def = filterDef(filter.filter_id);
  const request = def ? filterSourceRequest(def) : null;
  const source = useQuery({
    queryKey: pciKeys.filterSource(filter.filter_id ?? 0),
    queryFn: () =>
      request ? call(pciEndpoints.getFilterSourceDisplays, request.displays) : Promise.resolve([]),
    enabled: request !== null,
    staleTime: 5 * 60_000,
  });
  const options = new Map<string, string>();
  for (const o of source.data ?? []) {
    options.set(o.value, o.display === o.value || o.display === '' ? o.value : `${o.value} · ${o.display}`);
  }
  // Values stored earlier stay choosable even when the source no longer lists them.
  for (const v of filter.values) if (!options.has(v)) options.set(v, v);
  return (
    <MultiSelect
      size="xs"
      w={380}
      aria-label={`${label} values`}
      placeholder={def ? (source.isPending ? 'Loading values…' : 'Values') : 'Choose a field first'}
      data={[...options].map(([value, text]) => ({ value, label: text }))}
      value={filter.values}
      onChange={(values) => onChange({ ...filter, values })}
      searchable
      limit={200}
      maxDropdownHeight={260}
      disabled={readOnly || def === undefined}
      hidePickedOptions
    />
  );
}
