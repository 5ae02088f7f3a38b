import { Button, Checkbox, Group, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import type { TableDef } from '@paydesk/domain';
import { IconColumns } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { cleanColumns, defaultColumns } from './tableState';

interface ColumnsMenuProps {
  def: TableDef;
  visible: readonly string[];
  onChange: (columns: string[]) => void;
}

/** Show or hide columns; the last visible column cannot be hidden. */
export function ColumnsMenu({ def, visible, onChange }: ColumnsMenuProps) {
  // The URL updates in a navigation; the boxes answer the click at once.
  const [shown, setShown] = useState<string[]>([...visible]);
  const visibleKey = visible.join(',');
  // Follow the URL's column list by value (a new array each render is not a change).
  useEffect(() => setShown(visibleKey.split(',')), [visibleKey]);
  const change = (ids: string[]) => {
    const next = cleanColumns(def, ids);
    setShown(next);
    onChange(next);
  };
  return (
    <Popover position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns ({visible.length}/{def.columns.length})
        </Button>
      </Popover.Target>
      <Popover.Dropdown p="sm" w={260}>
        <Group justify="space-between" mb="xs">
          <Text fz="sm" fw={600}>
            Visible columns
          </Text>
          <Button variant="subtle" size="compact-xs" onClick={() => change(defaultColumns(def))}>
            Reset
          </Button>
        </Group>
        <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
          <Checkbox.Group value={shown} onChange={change}>
            <Stack gap={6}>
              {def.columns.map((column) => (
                <Checkbox
                  key={column.id}
                  value={column.id}
                  label={column.label}
                  disabled={shown.length === 1 && shown[0] === column.id}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
