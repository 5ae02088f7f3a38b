import { Badge, Button, Group } from '@mantine/core';
import { IconFileExport, IconFileImport } from '@tabler/icons-react';
import { useSessionUser } from '../../app/session';

/**
 * The actions above a toolkit table: a badge when the signed-in user sees one ISO only, Export XLSX, and
 * Import XLSX where the screen offers it to this user.
 */
export function TableActions({
  onExport,
  onImport,
}: {
  onExport: () => void;
  onImport?: (() => void) | undefined;
}) {
  const user = useSessionUser();
  return (
    <Group gap="sm">
      {user.iso && (
        <Badge variant="light" color="grape" size="lg">
          {user.iso.name} only
        </Badge>
      )}
      <Button variant="default" leftSection={<IconFileExport size={16} />} onClick={onExport}>
        Export XLSX
      </Button>
      {onImport && (
        <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={onImport}>
          Import XLSX
        </Button>
      )}
    </Group>
  );
}
