import { Badge, type ComboboxParsedItem, Group, Select, Stack, Text } from '@mantine/core';
import type { LeadRecord } from '@paydesk/domain/leads/contracts';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../app/api';
import { FormAlert } from '../../components/FormAlert';
import { groupByOwner, searchLeads } from './leadView';

/** Options shown at once; a search narrows the rest down. */
const SHOWN = 60;

interface LeadPickerProps {
  leads: LeadRecord[] | undefined;
  loading: boolean;
  error: unknown;
  onPick: (leadId: string) => void;
}

/** The searchable lead picker (spec §2.4): by name, company or owner, grouped by owner. */
export function LeadPicker({ leads, loading, error, onPick }: LeadPickerProps) {
  const [search, setSearch] = useState('');
  const groups = useMemo(() => groupByOwner(leads ?? []), [leads]);
  const byId = useMemo(() => new Map((leads ?? []).map((lead) => [lead.Id, lead])), [leads]);
  const data = useMemo(
    () =>
      groups.map((group) => ({
        group: group.owner,
        items: group.leads.map((lead) => ({ value: lead.Id, label: lead.Name })),
      })),
    [groups],
  );

  if (error)
    return <FormAlert kind="error">{errorMessage(error, 'The leads could not be loaded.')}</FormAlert>;
  return (
    <Select
      label="Open a lead"
      description="Search by name, company or owner; leads are grouped by their owner."
      placeholder={loading ? 'Loading leads…' : `Search ${byId.size.toLocaleString('en-US')} leads`}
      leftSection={<IconSearch size={16} />}
      searchable
      clearable
      value={null}
      searchValue={search}
      onSearchChange={setSearch}
      disabled={loading}
      data={data}
      limit={SHOWN}
      maxDropdownHeight={420}
      nothingFoundMessage="No lead matches"
      filter={({ search: typed, limit }) =>
        searchLeads(groups, typed, limit).map(
          (group): ComboboxParsedItem => ({
            group: group.owner,
            items: group.leads.map((lead) => ({ value: lead.Id, label: lead.Name })),
          }),
        )
      }
      renderOption={({ option }) => {
        const lead = byId.get(option.value);
        if (!lead) return option.label;
        return (
          <Group justify="space-between" wrap="nowrap" gap="md" w="100%">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fz="sm" fw={500} truncate>
                {lead.Name}
              </Text>
              <Text fz="xs" c="dimmed" truncate>
                {lead.Company ?? 'No company'} · created {lead.CreatedDate.slice(0, 10)}
              </Text>
            </Stack>
            <Badge variant="light" color="gray" radius="sm" style={{ flex: 'none' }}>
              {lead.Status}
            </Badge>
          </Group>
        );
      }}
      onChange={(value) => {
        setSearch('');
        if (value) onPick(value);
      }}
      maw={560}
    />
  );
}
