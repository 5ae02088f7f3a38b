import { Button, EmptyState } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

/** Spec document 3 §2: the catch-all screen. Signed-out visitors never get here (the layout sends them to /login). */
export default function NotFoundScreen() {
  const { pathname } = useLocation();
  return (
    <EmptyState
      mt={60}
      size="lg"
      icon={<IconMapOff size={32} />}
      variant="light"
      color="gray"
      title="404 Couldn't Route"
      description={`There is no PayDesk page at ${pathname}.`}
    >
      <EmptyState.Actions>
        <Button component={Link} to="/sales">
          Back to Sales
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
