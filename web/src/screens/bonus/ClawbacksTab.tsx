import { Button, Checkbox, Group, Select, Text, Tooltip } from '@mantine/core';
import { bonusEndpoints, CLAWBACK_FLAG_LABELS, type ClawbackRow, MONTH_NAMES } from '@paydesk/domain';
import { IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column } from '../../components/DataTable';
import {
  dateCell,
  FailureAlert,
  MERCHANT_SEARCH,
  merchantColumns,
  moneyCell,
  NoteButton,
  plain,
  rowName,
} from './BonusesTab';
import { clawbackDates, localToday } from './bonusSearch';
import { ListTable } from './ListTable';
import { NoteModal } from './NoteModal';
import { WhyText } from './WhyText';

/** Spec document 3 §2.3 and docs/bonus.md: a clawback reason code in words. */
const REASON_LABELS: Record<string, string> = {
  closure: 'Closed early',
  volume: 'Volume threshold not reached',
  non_processing: 'Never processed',
  monthly_volume: 'Monthly volume below threshold',
};

/**
 * Clawbacks (spec document 3 §2.3): the run of one month's 20th, chosen by year and month (the newest first). Do Not Clawback is
 * a checkbox only on negotiable clawbacks (flag CBN: the merchant is still open); a closed merchant's (CBY)
 * is final.
 */
export function ClawbacksTab({ canEdit }: { canEdit: boolean }) {
  const dates = clawbackDates(localToday());
  const [params, setParams] = useSearchParams();
  const asked = params.get('date');
  // Without a date in the URL, the newest run.
  const searched = asked && dates.includes(asked) ? asked : (dates[0] ?? null);
  const [year, setYear] = useState<string | null>(searched?.slice(0, 4) ?? null);
  const [month, setMonth] = useState<string | null>(searched?.slice(5, 7) ?? null);
  const years = [...new Set(dates.map((d) => d.slice(0, 4)))];
  const months = year
    ? dates
        .filter((d) => d.startsWith(`${year}-`))
        .map((d) => d.slice(5, 7))
        .sort()
    : [];
  const chosen = year && month ? `${year}-${month}-20` : null;
  const ready = chosen !== null && dates.includes(chosen);

  return (
    <>
      <Group gap="sm" align="flex-end" mb="md">
        <Select
          label="Year"
          placeholder="Choose"
          w={110}
          data={years}
          value={year}
          onChange={(value) => {
            setYear(value);
            if (value && month && !dates.includes(`${value}-${month}-20`)) setMonth(null);
          }}
          allowDeselect={false}
        />
        <Select
          label="Month"
          placeholder="Choose"
          w={150}
          data={months.map((m) => ({ value: m, label: MONTH_NAMES[Number(m) - 1] ?? m }))}
          disabled={!year}
          value={month}
          onChange={setMonth}
          allowDeselect={false}
        />
        <Button
          leftSection={<IconSearch size={16} />}
          disabled={!ready}
          onClick={() =>
            chosen &&
            setParams((old) => {
              const out = new URLSearchParams(old);
              out.set('date', chosen);
              return out;
            })
          }
        >
          Search
        </Button>
      </Group>
      {searched ? (
        <ClawbackTable date={searched} canEdit={canEdit} />
      ) : (
        <Text c="dimmed" fz="sm">
          Choose a year and month, then Search. Clawbacks run on the 20th of each month.
        </Text>
      )}
    </>
  );
}

const clawbackId = (r: ClawbackRow) => `${r.mid}-${r.clawback_date}`;

function ClawbackTable({ date, canEdit }: { date: string; canEdit: boolean }) {
  const key = bonusKeys.clawbacks(date);
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey: key, queryFn: () => call(bonusEndpoints.getClawback, { date }) });
  const [failure, setFailure] = useState<string | null>(null);
  const [noteOf, setNoteOf] = useState<ClawbackRow | null>(null);
  const [noteBusy, setNoteBusy] = useState(false);
  const [noteError, setNoteError] = useState<string | null>(null);

  const patch = (target: ClawbackRow, change: Partial<ClawbackRow>) =>
    queryClient.setQueryData<ClawbackRow[]>(key, (list) =>
      list?.map((r) => (clawbackId(r) === clawbackId(target) ? { ...r, ...change } : r)),
    );

  const setDoNotClawback = async (row: ClawbackRow, value: boolean) => {
    patch(row, { do_not_clawback: value });
    try {
      const answer = await call(bonusEndpoints.updateDoNotClawback, {
        mid: row.mid,
        clawback_date: row.clawback_date,
        do_not_clawback: value ? 1 : 0,
      });
      if (!answer.success) throw new Error(answer.message);
      setFailure(null);
    } catch (error) {
      patch(row, { do_not_clawback: row.do_not_clawback });
      setFailure(
        `Do Not Clawback of ${rowName(row)} was not saved. ${error instanceof Error && error.message ? error.message : errorMessage(error, 'Please try again.')}`,
      );
    }
    void queryClient.invalidateQueries({ queryKey: bonusKeys.logs() });
  };

  const saveNote = async (note: string) => {
    if (!noteOf) return;
    setNoteBusy(true);
    try {
      // The note belongs to the bonus row the clawback takes back.
      const answer = await call(bonusEndpoints.updateNote, { id: noteOf.id, note });
      if (!answer.success) throw new Error(answer.message);
      patch(noteOf, { note });
      setNoteOf(null);
      void queryClient.invalidateQueries({ queryKey: bonusKeys.rows() });
      void queryClient.invalidateQueries({ queryKey: bonusKeys.logs() });
    } catch (error) {
      setNoteError(
        error instanceof Error && error.message ? error.message : errorMessage(error, 'Not saved.'),
      );
    } finally {
      setNoteBusy(false);
    }
  };

  const columns: Column<ClawbackRow>[] = [
    ...merchantColumns<ClawbackRow>(),
    { key: 'close_date', header: 'Date Closed', render: (r) => dateCell(r.close_date), nowrap: true },
    {
      key: 'volume',
      header: 'Total Volume',
      render: (r) => moneyCell(r.volume),
      align: 'right',
      nowrap: true,
    },
    {
      key: 'last_deposit_date',
      header: 'Last Deposit Date',
      render: (r) => dateCell(r.last_deposit_date),
      nowrap: true,
    },
    {
      key: 'volume_threshold_date',
      header: 'Volume Threshold Date',
      render: (r) => dateCell(r.volume_threshold_date),
      nowrap: true,
    },
    { key: 'ownership_type', header: 'Ownership Type', render: (r) => plain(r.ownership_type), nowrap: true },
    {
      key: 'equipment_model',
      header: 'Equipment Model',
      render: (r) => plain(r.equipment_model),
      nowrap: true,
    },
    { key: 'bonus_type', header: 'Bonus Type', render: (r) => r.bonus_type, nowrap: true },
    { key: 'bonus_date', header: 'Bonus Date', render: (r) => dateCell(r.bonus_date), nowrap: true },
    { key: 'clawback_date', header: 'Clawback Date', render: (r) => dateCell(r.clawback_date), nowrap: true },
    {
      key: 'clawback_reason',
      header: 'Clawback Reason',
      render: (r) => (
        <Tooltip label={CLAWBACK_FLAG_LABELS[r.clawback_flag]} withArrow>
          <span>
            {REASON_LABELS[r.clawback_reason] ?? r.clawback_reason} ({r.clawback_flag})
          </span>
        </Tooltip>
      ),
      nowrap: true,
    },
    {
      key: 'bonus_amount',
      header: 'Bonus',
      render: (r) => moneyCell(r.bonus_amount),
      align: 'right',
      nowrap: true,
    },
    { key: 'paid', header: 'Paid', render: (r) => r.paid, align: 'center' },
    { key: 'explanation', header: 'Why', render: (r) => <WhyText text={r.explanation} /> },
    {
      key: 'note',
      header: 'Note',
      align: 'center',
      render: (r) => (
        <NoteButton
          row={r}
          onOpen={() => {
            setNoteError(null);
            setNoteOf(r);
          }}
        />
      ),
    },
    {
      key: 'do_not_clawback',
      header: 'Do Not Clawback',
      align: 'center',
      render: (r) =>
        r.clawback_flag === 'CBN' ? (
          <Checkbox
            aria-label={`Do not claw back ${rowName(r)}`}
            checked={r.do_not_clawback}
            disabled={!canEdit}
            onChange={(event) => setDoNotClawback(r, event.currentTarget.checked)}
          />
        ) : (
          <Text fz="xs" c="dimmed">
            —
          </Text>
        ),
    },
  ];

  return (
    <>
      <Text fz="sm" c="dimmed" mb="xs">
        The clawback run of {date}.
      </Text>
      <FailureAlert message={failure} onClose={() => setFailure(null)} />
      <ListTable<ClawbackRow>
        label="Clawbacks"
        noun="clawbacks"
        columns={columns}
        rows={rows.data}
        loading={rows.isFetching}
        error={rows.error ? errorMessage(rows.error, 'The clawbacks could not be loaded.') : null}
        empty={{
          title: 'No clawbacks on this date',
          description: 'No bonused merchant met a clawback rule, or this run has not happened yet.',
        }}
        rowKey={clawbackId}
        rowLabel={rowName}
        search={MERCHANT_SEARCH}
      />
      <NoteModal
        subject={noteOf ? rowName(noteOf) : null}
        note={noteOf?.note ?? ''}
        canEdit={canEdit}
        busy={noteBusy}
        error={noteError}
        onSave={saveNote}
        onClose={() => setNoteOf(null)}
      />
    </>
  );
}
