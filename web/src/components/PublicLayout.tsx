import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Brand } from './Brand';

interface PublicLayoutProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** The card's widest, in pixels; the sign-in pages keep the narrow default. */
  maxWidth?: number;
}

/** The centred card of the public pages (sign-in, forgot and reset password, the lead decision). */
export function PublicLayout({ title, description, children, maxWidth = 420 }: PublicLayoutProps) {
  return (
    <Center
      mih="100vh"
      p="md"
      style={{
        background:
          'radial-gradient(circle at 20% 0%, var(--mantine-color-indigo-1), transparent 55%), radial-gradient(circle at 100% 100%, var(--mantine-color-cyan-1), transparent 50%), var(--mantine-color-gray-0)',
      }}
    >
      <Stack w="100%" maw={maxWidth} gap="lg">
        <Center>
          <Brand size="lg" />
        </Center>
        <Paper withBorder shadow="md" radius="lg" p="xl">
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={2} fz={22}>
                {title}
              </Title>
              {description && (
                <Text c="dimmed" fz="sm">
                  {description}
                </Text>
              )}
            </Stack>
            {children}
          </Stack>
        </Paper>
        <Text c="dimmed" fz="xs" ta="center">
          PayDesk back office · for staff and partner ISOs
        </Text>
      </Stack>
    </Center>
  );
}
