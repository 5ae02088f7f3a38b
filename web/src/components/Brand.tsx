import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';

export function Brand({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <Group gap={large ? 'sm' : 'xs'} wrap="nowrap">
      <ThemeIcon
        size={large ? 44 : 32}
        radius="md"
        variant="gradient"
        gradient={{ from: 'indigo', to: 'cyan', deg: 135 }}
      >
        <IconBuildingBank size={large ? 26 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz={large ? 26 : 20} lh={1} c="dark.7" style={{ letterSpacing: '-0.02em' }}>
        PayDesk
      </Text>
    </Group>
  );
}
