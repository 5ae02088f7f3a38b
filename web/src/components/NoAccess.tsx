import { Button, EmptyState } from '@mantine/core';
import { hasPermission, type Permission } from '@paydesk/domain/access';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSessionUser } from '../app/session';

export function NoAccess() {
  return (
    <EmptyState
      mt={60}
      icon={<IconLock size={28} />}
      variant="light"
      color="gray"
      title="You don't have access to this page"
      description="Your department does not include this screen. If you need it, ask a PayDesk administrator."
    >
      <EmptyState.Actions>
        <Button component={Link} to="/sales" variant="light">
          Back to Sales
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

/** Renders the screen only for users holding `permission`; the server refuses the others regardless. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const user = useSessionUser();
  return hasPermission(user, permission) ? children : <NoAccess />;
}
