import { Badge, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CAPABILITY_LABELS,
  DEPARTMENT_LABELS,
  DEPARTMENTS,
  type Department,
  type UpdateUserBody,
  type UserRow,
} from '@paydesk/domain';
import { IconPencil, IconUserOff, IconUserPlus } from '@tabler/icons-react';
import { type Key, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../app/api';
import { type Column, DataTable } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { EditUserModal } from './EditUserModal';
import { useUpdateUser, useUsers } from './useUsers';

const DEPARTMENT_OPTIONS = DEPARTMENTS.map((d) => ({ value: d, label: DEPARTMENT_LABELS[d] }));

/** The update call takes the whole row; an inline change or a bulk action changes one field of it. */
function unchanged(user: UserRow): UpdateUserBody {
  return {
    id: user.id,
    department: user.department,
    capabilities: user.capabilities,
    active: user.active,
    isoId: user.isoId,
  };
}

function status(user: UserRow) {
  return (
    <Stack gap={4} align="flex-start">
      <Badge size="sm" variant="light" color={user.active ? 'teal' : 'gray'} miw="max-content">
        {user.active ? 'Active' : 'Inactive'}
      </Badge>
      {user.locked && (
        <>
          <Badge size="sm" variant="light" color="orange" miw="max-content">
            Locked
          </Badge>
          <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            until {formatDateTime(user.lockedUntil)}
          </Text>
        </>
      )}
    </Stack>
  );
}

function UsersList() {
  const users = useUsers();
  const update = useUpdateUser();
  const [editing, setEditing] = useState<UserRow | null>(null);
  const [selected, setSelected] = useState<Set<Key>>(new Set());
  const [deactivating, setDeactivating] = useState<UserRow[] | null>(null);

  /** Sends one user's change; a refusal (e.g. the partner-staff rule) comes back as the server's message. */
  const save = async (body: UpdateUserBody) => {
    const answer = await update.mutateAsync(body);
    if (!answer.success) throw new ApiError(200, answer.message, true);
  };

  const deactivate = async (rows: UserRow[]) => {
    const failures: string[] = [];
    // One call per user, as the Edit dialog does; each is audited on its own.
    for (const user of rows) {
      try {
        await save({ ...unchanged(user), active: false });
      } catch (failure) {
        failures.push(`${user.email}: ${errorMessage(failure, 'not saved')}`);
      }
    }
    setDeactivating(null);
    setSelected(new Set());
    notifications.show(
      failures.length === 0
        ? { color: 'teal', title: 'Deactivated', message: `${rows.length} users can no longer sign in.` }
        : { color: 'red', title: 'Some users were not deactivated', message: failures.join('\n') },
    );
  };

  const columns: Column<UserRow>[] = [
    {
      key: 'email',
      header: 'Email',
      // Addresses stay whole on one line; the table scrolls sideways on a narrow screen instead.
      nowrap: true,
      render: (user) => (
        <Text fz="sm" fw={500} span>
          {user.email}
        </Text>
      ),
    },
    {
      key: 'department',
      header: 'Department',
      nowrap: true,
      render: (user) => DEPARTMENT_LABELS[user.department],
      edit: {
        kind: 'select',
        options: DEPARTMENT_OPTIONS,
        value: (user) => user.department,
        label: (user) => `Department for ${user.email}`,
        onSave: (user, department) => save({ ...unchanged(user), department: department as Department }),
      },
    },
    {
      key: 'iso',
      header: 'ISO',
      render: (user) =>
        user.isoName ?? (
          <Text fz="sm" c="dimmed">
            Internal
          </Text>
        ),
    },
    {
      key: 'capabilities',
      header: 'Extra permissions',
      render: (user) =>
        user.capabilities.length === 0 ? (
          <Text fz="sm" c="dimmed">
            —
          </Text>
        ) : (
          <Group gap={4}>
            {user.capabilities.map((capability) => (
              <Tooltip key={capability} label={CAPABILITY_LABELS[capability].description}>
                <Badge size="sm" variant="light" color="gray" miw="max-content">
                  {CAPABILITY_LABELS[capability].label}
                </Badge>
              </Tooltip>
            ))}
          </Group>
        ),
    },
    { key: 'status', header: 'Status', nowrap: true, render: status },
    {
      key: 'lastSignin',
      header: 'Last sign-in',
      nowrap: true,
      render: (user) => formatDateTime(user.lastSigninAt),
    },
  ];
  const chosen = (ids: Key[]) => (users.data ?? []).filter((user) => ids.includes(user.id) && user.active);

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in to PayDesk: department, extra permissions, ISO binding and lockouts."
        actions={
          <Button component={Link} to="/register" leftSection={<IconUserPlus size={16} />}>
            Add a user
          </Button>
        }
      />
      <DataTable
        label="Users"
        columns={columns}
        rows={users.data}
        rowKey={(user) => user.id}
        loading={users.isLoading}
        error={users.error ? errorMessage(users.error, 'The user list could not be loaded.') : null}
        empty={{ title: 'No users yet', description: 'Users appear here once they are registered.' }}
        rowLabel={(user) => user.email}
        rowActions={[{ label: 'Edit', icon: <IconPencil size={14} />, onClick: setEditing }]}
        selection={{
          selected,
          onChange: setSelected,
          actions: [
            {
              label: 'Deactivate',
              icon: <IconUserOff size={14} />,
              color: 'red',
              onClick: (ids) => setDeactivating(chosen(ids)),
            },
          ],
        }}
      />
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
      <Modal
        opened={deactivating !== null}
        onClose={() => setDeactivating(null)}
        title="Deactivate users"
        radius="lg"
      >
        {deactivating && deactivating.length === 0 ? (
          <Text fz="sm">The selected users are inactive already.</Text>
        ) : (
          <Text fz="sm">
            {deactivating?.length} users will no longer be able to sign in:{' '}
            {deactivating?.map((user) => user.email).join(', ')}. They can be made active again from Edit.
          </Text>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setDeactivating(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={update.isPending}
            disabled={!deactivating || deactivating.length === 0}
            onClick={() => deactivating && deactivate(deactivating)}
          >
            Deactivate
          </Button>
        </Group>
      </Modal>
    </>
  );
}

export default function UsersScreen() {
  return <UsersList />;
}
