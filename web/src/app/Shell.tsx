import { AppShell, Badge, Button, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { DEPARTMENT_LABELS } from '@paydesk/domain/access';
import { IconLogout } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Brand } from '../components/Brand';
import { MENU, type MenuEntry, visibleMenu } from './menu';
import { useSession, useSessionUser } from './session';

function isActive(entry: MenuEntry, pathname: string): boolean {
  const path = pathname.toLowerCase();
  const target = entry.path.toLowerCase();
  if (target === '/sales' && path === '/') return true;
  return path === target || path.startsWith(`${target}/`);
}

/** The header and side menu around every protected screen. */
export function Shell({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const { signOut } = useSession();
  const { pathname } = useLocation();
  const [signingOut, setSigningOut] = useState(false);

  const logout = async () => {
    setSigningOut(true);
    await signOut();
  };

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 220, breakpoint: 'sm' }} padding="lg">
      <AppShell.Header px="lg">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Link to="/sales" aria-label="PayDesk home" style={{ textDecoration: 'none' }}>
            <Brand />
          </Link>
          <Group gap="md" wrap="nowrap">
            <Stack gap={0} align="flex-end">
              <Text fz="sm" fw={600} data-testid="session-email">
                {user.email}
              </Text>
              <Group gap={6} wrap="nowrap">
                <Badge size="sm" variant="light" data-testid="session-department">
                  {DEPARTMENT_LABELS[user.department]}
                </Badge>
                {user.iso && (
                  <Badge size="sm" variant="light" color="grape">
                    {user.iso.name}
                  </Badge>
                )}
              </Group>
            </Stack>
            <Button
              variant="default"
              leftSection={<IconLogout size={16} />}
              onClick={logout}
              loading={signingOut}
            >
              Logout
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main menu">
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {visibleMenu(user, MENU).map((entry) => {
              const active = isActive(entry, pathname);
              return (
                <NavLink
                  key={entry.path}
                  component={Link}
                  to={entry.path}
                  label={entry.label}
                  leftSection={<entry.icon size={18} stroke={1.7} />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  variant="light"
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                />
              );
            })}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">{children}</AppShell.Main>
    </AppShell>
  );
}
