import { NavLink, Paper, ScrollArea, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

/** The searchable list of ISOs on the left of the executive screen (spec 3 §2.1). */
export function IsoList({
  names,
  selected,
  onSelect,
  height,
}: {
  names: readonly string[];
  selected: string | null;
  onSelect: (name: string) => void;
  height: number;
}) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = needle === '' ? names : names.filter((n) => n.toLowerCase().includes(needle));
  return (
    <Paper withBorder radius="md" p="xs" component="nav" aria-label="ISOs">
      <TextInput
        aria-label="Search ISOs"
        placeholder="Search ISOs"
        leftSection={<IconSearch size={14} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        mb="xs"
      />
      <ScrollArea h={height} type="auto" offsetScrollbars>
        {shown.length === 0 ? (
          <Text fz="sm" c="dimmed" p="xs">
            No ISO matches.
          </Text>
        ) : (
          shown.map((name) => (
            <NavLink
              key={name}
              component="button"
              label={name}
              active={name === selected}
              onClick={() => onSelect(name)}
              aria-current={name === selected ? 'true' : undefined}
              styles={{ label: { whiteSpace: 'normal' } }}
            />
          ))
        )}
      </ScrollArea>
    </Paper>
  );
}
