import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormAlert } from '../../components/FormAlert';

interface NoteModalProps {
  /** Whose note: "MID 7410 · Blue Cafe"; null while closed. */
  subject: string | null;
  note: string;
  /** Without the bonus editing permission the note is read only. */
  canEdit: boolean;
  busy: boolean;
  error: string | null;
  onSave: (note: string) => void;
  onClose: () => void;
}

/** Spec document 3 §2.3: a row's note in a text area, with Save. */
export function NoteModal({ subject, note, canEdit, busy, error, onSave, onClose }: NoteModalProps) {
  const [text, setText] = useState(note);
  useEffect(() => {
    if (subject !== null) setText(note);
  }, [subject, note]);
  return (
    <Modal opened={subject !== null} onClose={onClose} title={`Note · ${subject ?? ''}`} size="md">
      <Stack gap="md">
        <Textarea
          label="Note"
          autosize
          minRows={4}
          maxRows={10}
          maxLength={2000}
          value={text}
          readOnly={!canEdit}
          onChange={(event) => setText(event.currentTarget.value)}
          data-autofocus
        />
        {error && <FormAlert kind="error">{error}</FormAlert>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {canEdit ? 'Cancel' : 'Close'}
          </Button>
          {canEdit && (
            <Button onClick={() => onSave(text.trim())} loading={busy} disabled={text.trim() === note.trim()}>
              Save
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
