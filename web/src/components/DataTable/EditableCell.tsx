import { ActionIcon, Group, Loader, Select, TextInput, UnstyledButton } from '@mantine/core';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { type KeyboardEvent, type ReactNode, useReducer } from 'react';
import { errorMessage } from '../../app/api';
import { editReducer, VIEWING } from './editCell';

/** How a column edits its value in place. Values travel as text, as form inputs give them. */
export interface CellEditor<Row> {
  kind: 'text' | 'number' | 'select' | 'date';
  /** The value the input starts with. */
  value: (row: Row) => string;
  /** For `select`: the choices. */
  options?: readonly { value: string; label: string }[];
  /** What is edited, for screen readers and the input's label: "Resolution for MID 7410". */
  label: (row: Row) => string;
  /** Saves on the server; a rejection's message is shown under the input. */
  onSave: (row: Row, value: string) => Promise<unknown>;
  /** Rows that cannot be edited show their value only. */
  editable?: (row: Row) => boolean;
}

/**
 * A cell that shows its value and turns into an input on click or Enter: Enter or Save saves, Escape or
 * Cancel gives up; while saving a spinner shows; a failure keeps the input open with the server's message.
 */
export function EditableCell<Row>({
  row,
  editor,
  children,
}: {
  row: Row;
  editor: CellEditor<Row>;
  children: ReactNode;
}) {
  const [state, dispatch] = useReducer(editReducer, VIEWING);
  const label = editor.label(row);

  if (editor.editable && !editor.editable(row)) return children;
  if (state.mode === 'view') {
    return (
      <UnstyledButton
        onClick={() => dispatch({ type: 'start', value: editor.value(row) })}
        aria-label={`Edit ${label}`}
        title="Click to edit"
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}
      >
        {children}
        <IconPencil size={13} style={{ opacity: 0.45 }} aria-hidden />
      </UnstyledButton>
    );
  }

  const saving = state.mode === 'saving';
  const error = state.mode === 'editing' ? state.error : null;
  const save = async () => {
    if (state.mode !== 'editing') return;
    dispatch({ type: 'save' });
    if (state.draft === state.original) return;
    try {
      await editor.onSave(row, state.draft);
      dispatch({ type: 'saved' });
    } catch (failure) {
      dispatch({ type: 'failed', error: errorMessage(failure, 'The change could not be saved.') });
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // In a select, Enter picks the highlighted choice; Save is a Tab away.
    if (event.key === 'Enter' && editor.kind !== 'select') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      dispatch({ type: 'cancel' });
    }
  };
  const common = {
    'aria-label': label,
    size: 'xs' as const,
    error,
    disabled: saving,
    autoFocus: true,
    onKeyDown,
    miw: 140,
  };

  return (
    <Group gap={4} wrap="nowrap" align="flex-start">
      {editor.kind === 'select' ? (
        <Select
          {...common}
          data={editor.options ?? []}
          value={state.draft}
          onChange={(value) => value !== null && dispatch({ type: 'change', draft: value })}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      ) : (
        <TextInput
          {...common}
          type={editor.kind === 'text' ? 'text' : editor.kind}
          value={state.draft}
          onChange={(event) => dispatch({ type: 'change', draft: event.currentTarget.value })}
        />
      )}
      {saving ? (
        <Loader size={16} mt={4} aria-label={`Saving ${label}`} />
      ) : (
        <>
          <ActionIcon size="md" variant="light" color="teal" onClick={save} aria-label={`Save ${label}`}>
            <IconCheck size={14} />
          </ActionIcon>
          <ActionIcon
            size="md"
            variant="subtle"
            color="gray"
            onClick={() => dispatch({ type: 'cancel' })}
            aria-label={`Cancel editing ${label}`}
          >
            <IconX size={14} />
          </ActionIcon>
        </>
      )}
    </Group>
  );
}
