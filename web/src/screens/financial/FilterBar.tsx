import { Button, Card, Group, MultiSelect, Pill, SimpleGrid, Text } from '@mantine/core';
import { FIN_GROUP_LABELS, FIN_GROUPS, type FinGroupOptions } from '@paydesk/domain';
import { IconFilterOff } from '@tabler/icons-react';
import { useMemo } from 'react';
import {
  EMPTY_SELECTION,
  type FinSelection,
  groupKeys,
  groupOptions,
  selectionCount,
  withGroupKeys,
} from './financialModel';

interface FilterBarProps {
  options: FinGroupOptions | undefined;
  loading: boolean;
  failed: boolean;
  selection: FinSelection;
  onChange: (selection: FinSelection) => void;
}

/** The six filter groups; an empty group means every value. */
export function FilterBar({ options, loading, failed, selection, onChange }: FilterBarProps) {
  const choices = useMemo(
    () => (options ? Object.fromEntries(FIN_GROUPS.map((g) => [g, groupOptions(g, options)])) : {}),
    [options],
  );
  const count = selectionCount(selection);
  return (
    <Card withBorder radius="md" padding="md" mb="md" component="section" aria-label="Filters">
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3, xl: 6 }} spacing="sm">
        {FIN_GROUPS.map((group) => (
          <MultiSelect
            key={group}
            label={FIN_GROUP_LABELS[group]}
            placeholder={
              loading ? 'Loading…' : failed ? 'Unavailable' : groupKeys(selection, group).length ? '' : 'All'
            }
            data={choices[group] ?? []}
            value={groupKeys(selection, group)}
            onChange={(keys) => onChange(withGroupKeys(selection, group, keys))}
            disabled={!options}
            searchable
            clearable
            hidePickedOptions
            maxDropdownHeight={280}
            nothingFoundMessage="No match"
            comboboxProps={{ width: group === 'mcc' || group === 'partner' ? 360 : undefined }}
            // An MCC's pill shows its code; the description is in the list and the pill's tooltip.
            renderPill={
              group === 'mcc'
                ? ({ option, onRemove, disabled }) => (
                    <Pill withRemoveButton onRemove={onRemove} disabled={disabled} title={option.label}>
                      {option.label.split(' – ')[0]}
                    </Pill>
                  )
                : undefined
            }
          />
        ))}
      </SimpleGrid>
      <Group justify="space-between" mt="sm" gap="xs">
        <Text fz="xs" c="dimmed" data-testid="filter-summary">
          {count === 0
            ? 'All merchants. Choose values to narrow the figures; several values in one group mean any of them.'
            : `${count} filter value${count === 1 ? '' : 's'} chosen. Groups combine: a merchant must match each group used.`}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconFilterOff size={14} />}
          onClick={() => onChange(EMPTY_SELECTION)}
          disabled={count === 0}
        >
          Clear filters
        </Button>
      </Group>
    </Card>
  );
}
