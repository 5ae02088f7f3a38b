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
  partnerStaffProblem,
  type UserRow,
  updateUserBody,
} from '@paydesk/domain';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { errorMessage } from '../../app/api';
import { DepartmentSelect } from '../../components/DepartmentSelect';
import { formatDateTime } from '../../components/format';
import { useZodForm } from '../../components/forms/useZodForm';
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
  const form = useZodForm(
    updateUserBody,
    {
      id: user.id,
      department: user.department,
      capabilities: user.capabilities,
      active: user.active,
      /** Only `false` is sent: it clears a lockout; locking is the sign-in's business. */
      locked: undefined as false | undefined,
      isoId: user.isoId,
    },
    async (body) => {
      try {
        const answer = await update.mutateAsync(body);
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
      } catch (failure) {
        notifications.show({
          color: 'red',
          title: 'Not saved',
          message: errorMessage(failure, 'The change was not saved. Please try again.'),
        });
      }
    },
  );
  const { department, capabilities, active, isoId } = form.values;
  const unlock = form.values.locked === false;

  const isoOptions = (isos.data ?? []).map((iso) => ({ value: iso.id, label: iso.name }));
  // Keep the current binding selectable even if the ISO list has not loaded or no longer lists it.
  if (user.isoId !== null && !isoOptions.some((option) => option.value === user.isoId)) {
    isoOptions.unshift({ value: user.isoId, label: user.isoName ?? `ISO ${user.isoId}` });
  }

  // The server enforces the same rule; here it explains itself before Save.
  const partnerRule = partnerStaffProblem({ department, capabilities, isoId });

  return (
    <form onSubmit={form.handleSubmit} noValidate>
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
                onClick={() => form.set('locked', unlock ? undefined : false)}
              >
                {unlock ? 'Keep locked' : 'Unlock'}
              </Button>
            </Group>
          </Alert>
        )}

        <SimpleGrid cols={2} spacing="md">
          <DepartmentSelect
            value={department}
            onChange={(value) => form.set('department', value)}
            description="Decides which screens the user sees"
          />
          <Select<number>
            label="ISO"
            description="Partner staff see only their ISO’s data; they can be Sales or Finance only, with no extra permissions"
            placeholder={isos.isLoading ? 'Loading ISOs…' : 'None (internal staff)'}
            data={isoOptions}
            value={isoId}
            onChange={(value) => form.set('isoId', value)}
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
            form.set(
              'capabilities',
              CAPABILITIES.filter((capability) => values.includes(capability)),
            )
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
          onChange={(event) => form.set('active', event.currentTarget.checked)}
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
          <Button type="submit" loading={form.submitting} disabled={!form.ready || partnerRule !== null}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
