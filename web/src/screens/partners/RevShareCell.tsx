import { ActionIcon, Group, Loader, Text, TextInput, Tooltip } from '@mantine/core';
import { partnerEndpoints } from '@paydesk/domain/contracts/partners';
import { IconAlertCircle, IconCheck, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { parseRevShare, percentShown, percentText } from './directory';

interface RevShareCellProps {
  groupId: string;
  groupName: string;
  /** The stored fraction. */
  fraction: number;
  editable: boolean;
  /** After a save: the new fraction (the card and the history refresh). */
  onSaved: (fraction: number) => void;
}

/**
 * Spec §4 rev share cell: focusing the field shows save and cancel; save shows a spinner, then the entered
 * percentage ÷ 100 becomes the value; a failure shows a red icon (its reason on hover, which the spec leaves
 * silent); cancel restores the last saved value. Checked with the server's own rule before it is sent.
 */
export function RevShareCell({ groupId, groupName, fraction, editable, onSaved }: RevShareCellProps) {
  const [saved, setSaved] = useState(fraction);
  const [draft, setDraft] = useState(percentText(fraction));
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const label = `Rev share of group ${groupId}`;

  // A refetch brought a newer value (another editor, an import): show it unless this cell is being edited.
  useEffect(() => {
    if (editing) return;
    setSaved(fraction);
    setDraft(percentText(fraction));
  }, [fraction, editing]);

  const save = useMutation({
    mutationFn: (percent: number) =>
      call(partnerEndpoints.updateRevShare, { group_id: groupId, revshare: percent }),
    onSuccess: (answer) => {
      setSaved(answer.rev_share);
      setDraft(percentText(answer.rev_share));
      setEditing(false);
      setProblem(null);
      onSaved(answer.rev_share);
    },
    onError: (failure) => setProblem(errorMessage(failure, 'The rev share could not be saved.')),
  });

  if (!editable) {
    return (
      <Text fz="sm" aria-label={label} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {percentShown(fraction)}
      </Text>
    );
  }

  const submit = () => {
    const parsed = parseRevShare(draft);
    if (!parsed.ok) {
      setProblem(parsed.message);
      return;
    }
    setProblem(null);
    save.mutate(parsed.percent);
  };
  const cancel = () => {
    setDraft(percentText(saved));
    setEditing(false);
    setProblem(null);
    save.reset();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };

  return (
    <Group gap={4} wrap="nowrap">
      <TextInput
        aria-label={label}
        title={`Rev share of ${groupName}, in percent`}
        size="xs"
        w={96}
        inputMode="decimal"
        value={draft}
        disabled={save.isPending}
        error={problem !== null}
        rightSection={
          <Text fz="xs" c="dimmed">
            %
          </Text>
        }
        onFocus={() => setEditing(true)}
        onChange={(event) => {
          setDraft(event.currentTarget.value);
          setEditing(true);
        }}
        onKeyDown={onKeyDown}
      />
      {save.isPending && <Loader size={16} aria-label={`Saving ${label}`} />}
      {editing && !save.isPending && (
        <>
          <ActionIcon size="md" variant="light" color="teal" onClick={submit} aria-label={`Save ${label}`}>
            <IconCheck size={14} />
          </ActionIcon>
          <ActionIcon size="md" variant="subtle" color="gray" onClick={cancel} aria-label={`Cancel ${label}`}>
            <IconX size={14} />
          </ActionIcon>
        </>
      )}
      {problem !== null && !save.isPending && (
        <Tooltip
          label={problem}
          withArrow
          multiline
          maw={280}
          events={{ hover: true, focus: true, touch: true }}
        >
          <ActionIcon size="md" variant="transparent" color="red" aria-label={`Not saved: ${problem}`}>
            <IconAlertCircle size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
