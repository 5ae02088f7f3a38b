import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

const LOOK = {
  error: { color: 'red', icon: <IconAlertCircle size={18} /> },
  success: { color: 'teal', icon: <IconCircleCheck size={18} /> },
  info: { color: 'blue', icon: <IconInfoCircle size={18} /> },
} as const;

/** A form's outcome, announced to screen readers as it appears. */
export function FormAlert({ kind, children }: { kind: keyof typeof LOOK; children: ReactNode }) {
  const { color, icon } = LOOK[kind];
  return (
    <Alert color={color} icon={icon} variant="light" role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </Alert>
  );
}
