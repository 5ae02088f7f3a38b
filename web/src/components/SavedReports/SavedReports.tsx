import { Button, Group, Modal, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type SavedFilters, TOAST_MS } from '@paydesk/domain';
import { IconDeviceFloppy, IconFolderOpen, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../app/api';
import { parseSavedReport, type SavedReportCalls, useSavedReports } from './useSavedReports';

interface SavedReportsProps {
  /** The table's saved-report calls (`tableReportCalls('selfserve')`, or ACH's own). */
  calls: SavedReportCalls;
  /** The view on screen, as a report would store it. */
  current: () => { saved: SavedFilters; columns: string[] };
  onLoad: (saved: SavedFilters, columns: string[]) => void;
}

function toast(ok: boolean, message?: string) {
  notifications.show({
    title: ok ? 'Success' : 'Fail!',
    message: message ?? '',
    color: ok ? 'teal' : 'red',
    autoClose: TOAST_MS,
  });
}

/** Spec §4: save the view under a name, load it back, delete it. Reports belong to the signed-in user. */
export function SavedReports({ calls, current, onLoad }: SavedReportsProps) {
  const { names, load, save, remove } = useSavedReports(calls);
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState(false);
  const options = (names.data ?? []).map((r) => r.reportName);
  const chosen = selected !== null && options.includes(selected) ? selected : null;

  const submitSave = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    // Spec §5: an empty trimmed name sends nothing.
    if (trimmed === '') return;
    save.mutate(
      { name: trimmed, ...current() },
      {
        onSuccess: (answer) => {
          const ok = Boolean(answer?.success);
          toast(ok, ok ? `Report “${trimmed}” saved` : undefined);
          if (ok) {
            setSelected(answer?.reportName ?? trimmed);
            setName('');
          }
        },
        onError: (error) => toast(false, errorMessage(error, 'The report was not saved.')),
      },
    );
  };

  const loadChosen = () => {
    if (!chosen) return;
    load.mutate(chosen, {
      onSuccess: (report) => {
        const parsed = parseSavedReport(report);
        if (!parsed) {
          toast(false, `Report “${chosen}” could not be read.`);
          return;
        }
        onLoad(parsed.saved, parsed.columns);
      },
      onError: (error) => toast(false, errorMessage(error, 'The report could not be loaded.')),
    });
  };

  const deleteChosen = () => {
    if (!chosen) return;
    remove.mutate(chosen, {
      onSuccess: () => {
        setSelected(null);
        setConfirming(false);
        toast(true, `Report “${chosen}” deleted`);
      },
      onError: (error) => {
        setConfirming(false);
        toast(false, errorMessage(error, 'The report was not deleted.'));
      },
    });
  };

  return (
    <Paper withBorder radius="md" px="md" py="sm" mb="sm" role="group" aria-label="Saved reports">
      <Group justify="space-between" align="flex-end" gap="md">
        <Group gap="xs" align="flex-end">
          <Select
            label="Saved reports"
            placeholder={
              names.isLoading ? 'Loading…' : options.length === 0 ? 'None saved yet' : 'Choose a report'
            }
            data={options}
            value={chosen}
            onChange={setSelected}
            searchable
            w={240}
            nothingFoundMessage="No report by that name"
            disabled={options.length === 0}
          />
          <Button
            variant="light"
            leftSection={<IconFolderOpen size={16} />}
            onClick={loadChosen}
            disabled={!chosen}
            loading={load.isPending}
          >
            Load
          </Button>
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => setConfirming(true)}
            disabled={!chosen}
          >
            Delete
          </Button>
        </Group>
        <form onSubmit={submitSave}>
          <Group gap="xs" align="flex-end">
            <TextInput
              label="Save this view as"
              placeholder="Report name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
              w={220}
            />
            <Button
              type="submit"
              variant="default"
              leftSection={<IconDeviceFloppy size={16} />}
              loading={save.isPending}
              disabled={name.trim() === ''}
            >
              Save
            </Button>
          </Group>
        </form>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete saved report" size="sm">
        <Stack gap="md">
          <Text fz="sm">Delete the report “{chosen}”? This cannot be undone.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={deleteChosen} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
