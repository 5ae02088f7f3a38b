import { ActionIcon, Card, Group, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface DashCardProps {
  title: string;
  subtitle?: ReactNode;
  /** Opens the card's detail rows. */
  onDownload?: () => void;
  /** Controls beside the download icon, e.g. the partner table's forward arrow. */
  actions?: ReactNode;
  loading: boolean;
  failed: boolean;
  /** The skeleton's height while loading. */
  skeleton?: number;
  children: ReactNode;
  testId?: string;
}

/** A dashboard card: a title, its figures, a download icon, and quiet loading and failure states. */
export function DashCard({
  title,
  subtitle,
  onDownload,
  actions,
  loading,
  failed,
  skeleton = 160,
  children,
  testId,
}: DashCardProps) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      h="100%"
      component="section"
      aria-label={title}
      data-testid={testId}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs" mb="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={2} fz="md" fw={650}>
            {title}
          </Title>
          {subtitle && (
            <Text fz="xs" c="dimmed">
              {subtitle}
            </Text>
          )}
        </Stack>
        <Group gap={4} wrap="nowrap">
          {actions}
          {onDownload && (
            <Tooltip label="Detail rows and Excel export" withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Download details: ${title}`}
                onClick={onDownload}
                disabled={loading}
              >
                <IconDownload size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      {loading ? (
        <Stack gap="xs" aria-busy="true" aria-label={`Loading ${title}`}>
          <Skeleton height={skeleton * 0.6} radius="sm" />
          <Skeleton height={12} width="70%" radius="sm" />
          <Skeleton height={12} width="45%" radius="sm" />
        </Stack>
      ) : failed ? (
        <Group gap={6} c="dimmed" py="lg" justify="center" role="status">
          <IconAlertTriangle size={16} />
          <Text fz="sm" c="dimmed">
            These figures could not be loaded. Try again in a moment.
          </Text>
        </Group>
      ) : (
        children
      )}
    </Card>
  );
}

/** A big figure with its label underneath. */
export function Figure({
  label,
  value,
  color,
  size = 30,
  testId,
}: {
  label: string;
  value: number | string | undefined;
  color?: string;
  size?: number;
  testId?: string;
}) {
  return (
    <Stack gap={0} align="flex-start">
      <Text
        fz={size}
        fw={700}
        lh={1.1}
        c={color}
        data-testid={testId}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {value === undefined ? '—' : typeof value === 'number' ? value.toLocaleString('en-US') : value}
      </Text>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.3 }}>
        {label}
      </Text>
    </Stack>
  );
}
