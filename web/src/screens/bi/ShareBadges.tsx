import { Badge, Group, Tooltip } from '@mantine/core';
import { sharePercent } from '@paydesk/domain';

export interface ShareBadge {
  label: string;
  count: number;
  color: string;
}

/** Each share as a percent of the ISO's approved deals (spec 3 §2.1), the count in its tooltip. */
export function ShareBadges({ badges, approved }: { badges: readonly ShareBadge[]; approved: number }) {
  return (
    <Group gap={6} wrap="wrap" data-testid="share-badges">
      {badges.map((b) => {
        const percent = sharePercent(b.count, approved);
        return (
          <Tooltip
            key={b.label}
            label={`${b.count.toLocaleString('en-US')} of ${approved.toLocaleString('en-US')} approved deals`}
            withArrow
          >
            <Badge variant="light" color={b.color} radius="sm" size="lg" tt="none" fw={600}>
              {b.label} {percent.toFixed(1)}%
            </Badge>
          </Tooltip>
        );
      })}
    </Group>
  );
}
