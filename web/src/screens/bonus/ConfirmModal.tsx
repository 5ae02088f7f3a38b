import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormAlert } from '../../components/FormAlert';

interface ConfirmModalProps {
  /** What is asked about; null while closed. */
  subject: ReactNode | null;
  title: string;
  confirmLabel: string;
  /** Red for deletions. */
  color?: string;
  busy: boolean;
  /** The server's refusal of the last try, shown in the modal. */
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Spec document 3 §5: every deletion asks first; a refusal from the server is shown where it was asked. */
export function ConfirmModal({
  subject,
  title,
  confirmLabel,
  color = 'red',
  busy,
  error,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  return (
    <Modal opened={subject !== null} onClose={onClose} title={title} size="md">
      <Stack gap="md">
        <Text fz="sm">{subject}</Text>
        {error && <FormAlert kind="error">{error}</FormAlert>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={color} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
