import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CAPABILITIES,
  CAPABILITY_LABELS,
  type Capability,
  type Department,
  partnerStaffProblem,
  type UserRow,
} from '@paydesk/domain';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../app/api';
import { DepartmentSelect } from '../../components/DepartmentSelect';
import { formatDateTime } from '../../components/format';
import { useIsos, useUpdateUser } from './useUsers';

interface EditUserModalProps {
  user: UserRow | null;
  onClose: () => void;
}

export function EditUserModal({ user, onClose }: EditUserModalProps) {
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title={user ? `Edit ${user.email}` : 'Edit user'}
      size="lg"
      radius="lg"
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {/* Keyed so each opening starts from the row as it is now. */}
      {user && <EditUserForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function EditUserForm({ user, onClose }: { user: UserRow; onClose: () => void }) {
  const isos = useIsos();
  const update = useUpdateUser();
  const [department, setDepartment] = useState<Department>(user.department);
  const [capabilities, setCapabilities] = useState<Capability[]>(user.capabilities);
  const [active, setActive] = useState(user.active);
  const [unlock, setUnlock] = useState(false);
  const [isoId, setIsoId] = useState<number | null>(user.isoId);

  const isoOptions = (isos.data ?? []).map((iso) => ({ value: iso.id, label: iso.name }));
  // Keep the current binding selectable even if the ISO list has not loaded or no longer lists it.
  if (user.isoId !== null && !isoOptions.some((option) => option.value === user.isoId)) {
    isoOptions.unshift({ value: user.isoId, label: user.isoName ?? `ISO ${user.isoId}` });
  }

  // The server enforces the same rule; here it explains itself before Save.
  const partnerRule = partnerStaffProblem({ department, capabilities, isoId });

  const save = () => {
    update.mutate(
      { id: user.id, department, capabilities, active, isoId, ...(unlock ? { locked: false as const } : {}) },
      {
        onSuccess: (answer) => {
          if (answer.success) {
            notifications.show({
              color: 'teal',
              title: 'Saved',
              message: answer.message || `${user.email} was updated.`,
            });
            onClose();
          } else {
            notifications.show({ color: 'red', title: 'Not saved', message: answer.message });
          }
        },
        onError: (failure) =>
          notifications.show({
            color: 'red',
            title: 'Not saved',
            message: errorMessage(failure, 'The change was not saved. Please try again.'),
          }),
      },
    );
  };

  return (
    <Stack gap="lg">
      {user.locked && (
        <Alert
          color={unlock ? 'teal' : 'orange'}
          variant="light"
          icon={unlock ? <IconLockOpen size={18} /> : <IconLock size={18} />}
          title={unlock ? 'Will be unlocked when you save' : 'Locked after too many failed sign-ins'}
        >
          <Group justify="space-between" wrap="nowrap" align="center">
            <Text fz="sm">
              {unlock
                ? 'The user can sign in again right after saving.'
                : `The lock lifts by itself ${user.lockedUntil ? `at ${formatDateTime(user.lockedUntil)}` : 'later'}.`}
            </Text>
            <Button
              size="xs"
              variant={unlock ? 'default' : 'filled'}
              color={unlock ? 'gray' : 'orange'}
              onClick={() => setUnlock(!unlock)}
            >
              {unlock ? 'Keep locked' : 'Unlock'}
            </Button>
          </Group>
        </Alert>
      )}

      <SimpleGrid cols={2} spacing="md">
        <DepartmentSelect
          value={department}
          onChange={setDepartment}
          description="Decides which screens the user sees"
        />
        <Select<number>
          label="ISO"
          description="Partner staff see only their ISO’s data; they can be Sales or Finance only, with no extra permissions"
          placeholder={isos.isLoading ? 'Loading ISOs…' : 'None (internal staff)'}
          data={isoOptions}
          value={isoId}
          onChange={setIsoId}
          clearable
          searchable
          // Unmounted while closed, so the field's label names only the input.
          comboboxProps={{ keepMounted: false }}
          nothingFoundMessage="No ISO matches"
        />
      </SimpleGrid>

      <Checkbox.Group
        label="Extra permissions"
        description="Granted on top of what the department allows"
        value={capabilities}
        onChange={(values) =>
          setCapabilities(CAPABILITIES.filter((capability) => values.includes(capability)))
        }
      >
        <SimpleGrid cols={2} spacing="sm" mt="xs">
          {CAPABILITIES.map((capability) => (
            <Checkbox
              key={capability}
              value={capability}
              label={CAPABILITY_LABELS[capability].label}
              description={CAPABILITY_LABELS[capability].description}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>

      <Switch
        label="Active"
        description="An inactive user cannot sign in"
        checked={active}
        onChange={(event) => setActive(event.currentTarget.checked)}
      />

      {partnerRule && (
        <Alert color="orange" variant="light" title="Not allowed for partner staff">
          {partnerRule}. Clear the ISO to keep these rights, or choose Sales or Finance without extra
          permissions.
        </Alert>
      )}

      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={save} loading={update.isPending} disabled={partnerRule !== null}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
