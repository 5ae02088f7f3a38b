import { Loader, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ACH_EDIT_KINDS, ACH_RESOLUTIONS, type AchEditableColumn } from '@paydesk/domain';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import classes from './AchScreen.module.css';
import { type AchRow, commitOf, inputValue } from './achEdit';

interface AchEditCellProps {
  row: AchRow;
  column: AchEditableColumn;
  /** "Comment of MID 4417… return 1201": what the input is, for screen readers and tests. */
  label: string;
  /**
   * Saves the value (null clears the cell), based on the row version the edit began at. Rejects with the
   * message the cell shows beside its icon; the screen shows the failure itself too.
   */
  onSave: (value: string | null, startedAt: number) => Promise<void>;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  /** `refused`: the value the server turned down, which leaving the cell does not send again. */
  | { kind: 'problem'; message: string; refused?: string };

/** How the user left the value: Enter (a deliberate send, also a retry), leaving the cell, or a choice. */
type Leave = 'enter' | 'blur' | 'choice';

/**
 * One editable ACH cell (spec §5): text and amounts save on blur or Enter when the value changed, the resolution
 * when another is chosen, the dates on blur or Enter. Amounts are checked as amounts before they are sent.
 * Escape puts the stored value back. A saved cell shows a check, a refused one a red icon with the reason.
 */
export function AchEditCell({ row, column, label, onSave }: AchEditCellProps) {
  const kind = ACH_EDIT_KINDS[column];
  const stored = inputValue(column, row[column]);
  const version = Number(row.version);
  const [draft, setDraft] = useState(stored);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // What the edit started from: the value shown and the row version when the user began typing.
  const start = useRef<{ value: string; version: number } | null>(null);
  const focused = useRef(false);

  const saving = useRef(false);

  // A newer row (after a save, a reload, another editor's change) shows unless this cell is being worked. A new
  // version with the same value still clears a refusal: the row the refusal was about has been reloaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the row's value and version are the triggers
  useEffect(() => {
    if (focused.current || saving.current) return;
    setDraft(stored);
    setStatus((s) => (s.kind === 'problem' ? { kind: 'idle' } : s));
    start.current = null;
  }, [stored, version]);

  const begin = () => {
    start.current ??= { value: stored, version };
  };

  const commit = async (value: string, how: Leave) => {
    if (status.kind === 'saving') return;
    // Enter, then a click on the stale-edit notice's Reload, must not send the refused value a second time.
    if (how === 'blur' && status.kind === 'problem' && status.refused === value) return;
    const from = start.current ?? { value: stored, version };
    const decision = commitOf(column, from.value, value);
    if (decision.kind === 'unchanged') {
      if (status.kind === 'problem') setStatus({ kind: 'idle' });
      return;
    }
    if (decision.kind === 'invalid') {
      // Said once, not again when the same value is left a second time (Enter, then a click elsewhere).
      if (status.kind !== 'problem' || status.message !== decision.message) {
        notifications.show({ color: 'red', title: `${label}: not saved`, message: decision.message });
      }
      setStatus({ kind: 'problem', message: decision.message });
      return;
    }
    setStatus({ kind: 'saving' });
    saving.current = true;
    try {
      await onSave(decision.value, from.version);
      start.current = { value: decision.value ?? '', version: from.version };
      setDraft(decision.value ?? '');
      setStatus({ kind: 'saved' });
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      setStatus({ kind: 'problem', message, refused: value });
    } finally {
      saving.current = false;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void commit(event.currentTarget.value, 'enter');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setDraft(start.current?.value ?? stored);
      setStatus({ kind: 'idle' });
    }
  };
  const common = {
    'aria-label': label,
    'aria-invalid': status.kind === 'problem',
    // Not `disabled`: a disabled input loses focus without a blur, and the cell would then count as still
    // being worked and ignore the newer rows it is given.
    'aria-busy': status.kind === 'saving',
    onFocus: () => {
      focused.current = true;
      begin();
    },
  };

  const input =
    kind === 'resolution' ? (
      <select
        {...common}
        className={`${classes.input} ${classes.select}`}
        value={draft}
        onChange={(event) => {
          if (status.kind === 'saving') return;
          begin();
          const value = event.currentTarget.value;
          setDraft(value);
          void commit(value, 'choice');
        }}
        onBlur={() => {
          focused.current = false;
        }}
      >
        <option value="">—</option>
        {/* A resolution stored before the list changed still shows as it is. */}
        {draft !== '' && !(ACH_RESOLUTIONS as readonly string[]).includes(draft) && (
          <option value={draft}>{draft}</option>
        )}
        {ACH_RESOLUTIONS.map((resolution) => (
          <option key={resolution} value={resolution}>
            {resolution}
          </option>
        ))}
      </select>
    ) : (
      <input
        {...common}
        className={`${classes.input} ${kind === 'money' ? classes.money : kind === 'date' ? classes.date : classes.text}`}
        type={kind === 'date' ? 'date' : 'text'}
        inputMode={kind === 'money' ? 'decimal' : undefined}
        maxLength={kind === 'text' ? 1000 : 20}
        title={kind === 'text' && draft.length > 24 ? draft : undefined}
        value={draft}
        readOnly={status.kind === 'saving'}
        onChange={(event) => {
          begin();
          setDraft(event.currentTarget.value);
          if (status.kind !== 'saving') setStatus({ kind: 'idle' });
        }}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          focused.current = false;
          void commit(event.currentTarget.value, 'blur');
        }}
      />
    );

  return (
    <span className={classes.cell}>
      {input}
      <span className={classes.status}>
        {status.kind === 'saving' && <Loader size={12} aria-label={`Saving ${label}`} />}
        {status.kind === 'saved' && (
          <IconCheck size={14} color="var(--mantine-color-teal-6)" aria-label={`Saved ${label}`} />
        )}
        {status.kind === 'problem' && (
          <Tooltip
            label={status.message}
            withArrow
            multiline
            maw={300}
            events={{ hover: true, focus: true, touch: true }}
          >
            <IconAlertCircle
              size={16}
              color="var(--mantine-color-red-6)"
              role="img"
              aria-label={`Not saved: ${status.message}`}
              tabIndex={0}
            />
          </Tooltip>
        )}
      </span>
    </span>
  );
}
