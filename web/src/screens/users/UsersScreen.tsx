import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { CAPABILITY_LABELS, DEPARTMENT_LABELS, type UserRow } from '@paydesk/domain';
import { IconPencil, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../app/api';
import { type Column, DataTable } from '../../components/DataTable';
import { formatDateTime } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { EditUserModal } from './EditUserModal';
import { useUsers } from './useUsers';

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
  const [editing, setEditing] = useState<UserRow | null>(null);

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
    },
    {
      key: 'iso',
      header: 'ISO',
      nowrap: true,
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
      width: '30%',
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
    {
      key: 'edit',
      header: '',
      nowrap: true,
      align: 'right',
      render: (user) => (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPencil size={14} />}
          onClick={() => setEditing(user)}
          aria-label={`Edit ${user.email}`}
        >
          Edit
        </Button>
      ),
    },
  ];

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
      />
      <EditUserModal user={editing} onClose={() => setEditing(null)} />
    </>
  );
}

export default function UsersScreen() {
  return <UsersList />;
}
