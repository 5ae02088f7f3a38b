import { Center, Loader, Stack, Text } from '@mantine/core';

/** While the whole app waits for the server, e.g. the first session check. */
export function FullPageLoader({ label = 'Checking your session…' }: { label?: string }) {
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" fz="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** While one screen (or a part of it) loads inside the shell. */
export function ScreenLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
