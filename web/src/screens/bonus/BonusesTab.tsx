import { ActionIcon, Alert, Button, Checkbox, Group, Select, Text, Tooltip } from '@mantine/core';
import {
  BONUS_PERIOD_LABELS,
  BONUS_PERIODS,
  type BonusPeriod,
  type BonusRow,
  bonusEndpoints,
  EXTRA_BONUS_TYPE_LABELS,
  type ExtraBonusRow,
  type ExtraBonusType,
  MONTH_NAMES,
  windowOf,
} from '@paydesk/domain';
import { IconAlertTriangle, IconNote, IconNotes, IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column } from '../../components/DataTable';
import { formatCell } from '../../components/format';
import {
  type BonusSelection,
  latestSelection,
  localToday,
  monthsFor,
  searchDate,
  weeklyDays,
  yearsFor,
} from './bonusSearch';
import { ListTable } from './ListTable';
import { MatchesModal } from './MatchesModal';
import { NoteModal } from './NoteModal';
import { WhyText } from './WhyText';

type ExtraRow = ExtraBonusRow;
/** What a mark or a note is made on: a bonus row or a monthly extra row. */
type Marked = Pick<BonusRow, 'id' | 'mid' | 'dba_name' | 'do_not_pay' | 'note'>;

const isPeriod = (value: string | null): value is BonusPeriod =>
  value === 'W' || value === 'M' || value === 'ME';

export const rowName = (row: Pick<BonusRow, 'mid' | 'dba_name'>) =>
  `MID ${row.mid}${row.dba_name ? ` · ${row.dba_name}` : ''}`;

/**
 * The search in force, from the URL (?period=W&date=2026-11-12), so a window can be linked to and reloaded;
 * without one, the newest monthly window that has run.
 */
function useSearched(today: string) {
  const [params, setParams] = useSearchParams();
  const period = params.get('period');
  const date = params.get('date');
  const fromUrl = isPeriod(period) && date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? { period, date } : null;
  const newest = searchDate(latestSelection('M', today));
  const searched = fromUrl ?? (newest ? { period: 'M' as const, date: newest } : null);
  const search = (next: { period: BonusPeriod; date: string }) =>
    setParams((old) => {
      const out = new URLSearchParams(old);
      out.set('period', next.period);
      out.set('date', next.date);
      return out;
    });
  return { searched, search };
}

/** The selectors as the searched date reads them back. */
function selectionOf(searched: { period: BonusPeriod; date: string }): BonusSelection {
  const [y, m, d] = searched.date.split('-').map(Number) as [number, number, number];
  return { period: searched.period, year: y, month: m, day: searched.period === 'W' ? d : null };
}

/**
 * Bonuses (spec document 3 §2.3): a period, then year, month and, for Weekly, the Thursday that starts the
 * window; Search is enabled once every needed selector is chosen. Each row can be marked do-not-pay and given
 * a note; a warning opens the earlier bonused merchants at the same address.
 */
export function BonusesTab({ canEdit }: { canEdit: boolean }) {
  const today = localToday();
  const { searched, search } = useSearched(today);
  const [selection, setSelection] = useState<BonusSelection>(() =>
    searched ? selectionOf(searched) : { period: 'M', year: null, month: null, day: null },
  );
  const date = searchDate(selection);

  const choose = (change: Partial<BonusSelection>) =>
    setSelection((old) => {
      const next = { ...old, ...change };
      // A choice that the narrower selectors no longer fit clears them.
      if (next.period && next.year !== null && !yearsFor(next.period, today).includes(next.year))
        next.year = null;
      if (
        next.period &&
        next.year !== null &&
        next.month !== null &&
        !monthsFor(next.period, next.year, today).includes(next.month)
      )
        next.month = null;
      if (next.period !== 'W' || next.year === null || next.month === null) next.day = null;
      else if (next.day !== null && !weeklyDays(next.year, next.month, today).includes(next.day))
        next.day = null;
      return next;
    });

  const { period, year, month, day } = selection;
  return (
    <>
      <Group gap="sm" align="flex-end" mb="md" wrap="wrap">
        <Select
          label="Period"
          placeholder="Choose"
          w={160}
          data={BONUS_PERIODS.map((p) => ({ value: p, label: BONUS_PERIOD_LABELS[p] }))}
          value={period}
          onChange={(value) => choose({ period: isPeriod(value) ? value : null })}
          allowDeselect={false}
        />
        <Select
          label="Year"
          placeholder="Choose"
          w={110}
          data={period ? yearsFor(period, today).map(String) : []}
          disabled={!period}
          value={year === null ? null : String(year)}
          onChange={(value) => choose({ year: value ? Number(value) : null })}
          allowDeselect={false}
        />
        <Select
          label="Month"
          placeholder="Choose"
          w={150}
          data={
            period && year !== null
              ? monthsFor(period, year, today).map((m) => ({
                  value: String(m),
                  label: MONTH_NAMES[m - 1] ?? '',
                }))
              : []
          }
          disabled={!period || year === null}
          value={month === null ? null : String(month)}
          onChange={(value) => choose({ month: value ? Number(value) : null })}
          allowDeselect={false}
        />
        {period === 'W' && (
          <Select
            label="Day"
            placeholder="Choose"
            w={100}
            data={year !== null && month !== null ? weeklyDays(year, month, today).map(String) : []}
            disabled={year === null || month === null}
            value={day === null ? null : String(day)}
            onChange={(value) => choose({ day: value ? Number(value) : null })}
            allowDeselect={false}
          />
        )}
        <Button
          leftSection={<IconSearch size={16} />}
          disabled={date === null || period === null}
          onClick={() => period && date && search({ period, date })}
        >
          Search
        </Button>
      </Group>
      {searched === null ? (
        <Text c="dimmed" fz="sm">
          Choose a period, year, month{period === 'W' ? ' and day' : ''}, then Search.
        </Text>
      ) : searched.period === 'ME' ? (
        <ExtraTable date={searched.date} canEdit={canEdit} />
      ) : (
        <BonusTable period={searched.period} date={searched.date} canEdit={canEdit} />
      )}
    </>
  );
}

/** A change call's answer: refused changes throw, so every caller handles one kind of failure. */
async function changed(answer: Promise<{ success: boolean; message: string }>): Promise<void> {
  const result = await answer;
  if (!result.success) throw new Error(result.message);
}

const failureText = (error: unknown, fallback: string) =>
  error instanceof Error && !(error.name === 'ApiError') && error.message
    ? error.message
    : errorMessage(error, fallback);

/** Do-not-pay and notes on a window's rows, patched in the cached list at once and undone if refused. */
export function useRowWork(rowsKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [noteOf, setNoteOf] = useState<Marked | null>(null);
  const [saving, setSaving] = useState(false);
  const [noteError, setNoteError] = useState<string | null>(null);

  const patch = (id: Marked['id'], change: Partial<Marked>) =>
    queryClient.setQueryData<Marked[]>(rowsKey, (rows) =>
      rows?.map((row) => (row.id === id ? { ...row, ...change } : row)),
    );

  const setDoNotPay = async (row: Marked, doNotPay: boolean) => {
    patch(row.id, { do_not_pay: doNotPay });
    try {
      await changed(call(bonusEndpoints.updateDoNotPay, { id: row.id, do_not_pay: doNotPay ? 1 : 0 }));
      setFailure(null);
    } catch (error) {
      patch(row.id, { do_not_pay: row.do_not_pay });
      setFailure(`Do Not Pay of ${rowName(row)} was not saved. ${failureText(error, 'Please try again.')}`);
    }
    void queryClient.invalidateQueries({ queryKey: bonusKeys.logs() });
  };

  const saveNote = async (note: string) => {
    if (!noteOf) return;
    setSaving(true);
    try {
      await changed(call(bonusEndpoints.updateNote, { id: noteOf.id, note }));
      patch(noteOf.id, { note });
      setNoteOf(null);
      setNoteError(null);
      void queryClient.invalidateQueries({ queryKey: bonusKeys.logs() });
    } catch (error) {
      setNoteError(failureText(error, 'The note was not saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return {
    failure,
    clearFailure: () => setFailure(null),
    setDoNotPay,
    openNote: (row: Marked) => {
      setNoteError(null);
      setNoteOf(row);
    },
    noteModal: (canEdit: boolean) => (
      <NoteModal
        subject={noteOf ? rowName(noteOf) : null}
        note={noteOf?.note ?? ''}
        canEdit={canEdit}
        busy={saving}
        error={noteError}
        onSave={saveNote}
        onClose={() => setNoteOf(null)}
      />
    ),
  };
}

export function DoNotPayBox({
  row,
  canEdit,
  onChange,
}: {
  row: Marked;
  canEdit: boolean;
  onChange: (doNotPay: boolean) => void;
}) {
  return (
    <Checkbox
      aria-label={`Do not pay ${rowName(row)}`}
      checked={row.do_not_pay}
      disabled={!canEdit}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}

export function NoteButton({
  row,
  onOpen,
}: {
  row: Pick<Marked, 'mid' | 'dba_name' | 'note'>;
  onOpen: () => void;
}) {
  const has = Boolean(row.note && row.note.trim() !== '');
  return (
    <Tooltip label={has ? row.note : 'No note yet'} withArrow multiline maw={320}>
      <ActionIcon
        variant={has ? 'light' : 'subtle'}
        color={has ? 'blue' : 'gray'}
        aria-label={`Note of ${rowName(row)}`}
        onClick={onOpen}
      >
        {has ? <IconNotes size={16} /> : <IconNote size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

export function FailureAlert({ message, onClose }: { message: string | null; onClose: () => void }) {
  if (!message) return null;
  return (
    <Alert
      color="red"
      variant="light"
      mb="sm"
      icon={<IconAlertTriangle size={18} />}
      title="A change was not saved"
      role="alert"
      withCloseButton
      onClose={onClose}
    >
      {message}
    </Alert>
  );
}

export const dateCell = (value: string | null | undefined) => formatCell('date', value);
export const moneyCell = (value: string | null | undefined) => formatCell('money', value);
export const plain = (value: string | null | undefined): ReactNode => value ?? '—';

type MerchantRow = Pick<
  BonusRow,
  'mid' | 'dba_name' | 'iso_name' | 'group_id' | 'rm' | 'sales_rep' | 'merchant_profile' | 'open_date'
>;

/** The merchant columns every bonus list starts with (MID and DBA stay in view while the table scrolls). */
export function merchantColumns<R extends MerchantRow>(): Column<R>[] {
  return [
    { key: 'mid', header: 'MID', render: (r) => r.mid, nowrap: true, pinned: true },
    { key: 'dba_name', header: 'DBA', render: (r) => plain(r.dba_name), nowrap: true, pinned: true },
    { key: 'iso_name', header: 'ISO', render: (r) => plain(r.iso_name), nowrap: true },
    { key: 'group_id', header: 'Group ID', render: (r) => plain(r.group_id), nowrap: true },
    { key: 'rm', header: 'RM', render: (r) => plain(r.rm), nowrap: true },
    { key: 'sales_rep', header: 'Sales Rep Name', render: (r) => plain(r.sales_rep), nowrap: true },
    { key: 'merchant_profile', header: 'Profile', render: (r) => plain(r.merchant_profile), nowrap: true },
    { key: 'open_date', header: 'Date Opened', render: (r) => dateCell(r.open_date), nowrap: true },
  ];
}

export const MERCHANT_SEARCH = {
  placeholder: 'Search MID, DBA, ISO or group ID',
  fields: (r: MerchantRow) => [r.mid, r.dba_name, r.iso_name, r.group_id],
};

/** The days a searched window covers, above its rows. */
function WindowCaption({ period, date }: { period: 'W' | 'M' | 'ME'; date: string }) {
  const window = windowOf(period, date);
  if (!window) return null;
  const { start, end } = window;
  const what = period === 'ME' ? 'Extra bonuses for deals opened' : 'Bonuses for merchants approved';
  return (
    <Text fz="sm" c="dimmed" mb="xs">
      {what} from {start} to {end}.
    </Text>
  );
}

/** A weekly or monthly window's bonuses. */
function BonusTable({ period, date, canEdit }: { period: 'W' | 'M'; date: string; canEdit: boolean }) {
  const key = bonusKeys.bonuses(period, date);
  const rows = useQuery({
    queryKey: key,
    queryFn: () => call(bonusEndpoints.getBonus, { bonusType: period, date }),
  });
  const [matchesOf, setMatchesOf] = useState<BonusRow | null>(null);
  const matches = useQuery({
    queryKey: bonusKeys.matches(matchesOf ? [matchesOf.mid] : []),
    queryFn: () => call(bonusEndpoints.getMatchesByMid, { mids: matchesOf ? [matchesOf.mid] : [] }),
    enabled: matchesOf !== null,
  });
  const work = useRowWork(key);

  const columns: Column<BonusRow>[] = [
    ...merchantColumns<BonusRow>(),
    { key: 'bonus_date', header: 'Bonus Date', render: (r) => dateCell(r.bonus_date), nowrap: true },
    { key: 'bonus_type', header: 'Bonus Type', render: (r) => r.bonus_type, nowrap: true },
    {
      key: 'bonus_amount',
      header: 'Bonus',
      render: (r) => moneyCell(r.bonus_amount),
      align: 'right',
      nowrap: true,
    },
    {
      key: 'do_not_pay',
      header: 'Do Not Pay',
      align: 'center',
      render: (r) => <DoNotPayBox row={r} canEdit={canEdit} onChange={(v) => work.setDoNotPay(r, v)} />,
    },
    {
      key: 'note',
      header: 'Note',
      align: 'center',
      render: (r) => <NoteButton row={r} onOpen={() => work.openNote(r)} />,
    },
    {
      key: 'matches',
      header: 'Matches',
      align: 'center',
      render: (r) =>
        r.match_count > 0 ? (
          <Tooltip
            label={`${r.match_count} earlier bonused merchant${r.match_count === 1 ? '' : 's'} at this address`}
            withArrow
          >
            <ActionIcon
              color="orange"
              variant="light"
              aria-label={`Matches of ${rowName(r)}`}
              onClick={() => setMatchesOf(r)}
            >
              <IconAlertTriangle size={16} />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Text fz="xs" c="dimmed">
            —
          </Text>
        ),
    },
    { key: 'explanation', header: 'Why', render: (r) => <WhyText text={r.explanation} /> },
    { key: 'ownership_type', header: 'Ownership Type', render: (r) => plain(r.ownership_type), nowrap: true },
    {
      key: 'equipment_model',
      header: 'Equipment Model',
      render: (r) => plain(r.equipment_model),
      nowrap: true,
    },
  ];

  return (
    <>
      <WindowCaption period={period} date={date} />
      <FailureAlert message={work.failure} onClose={work.clearFailure} />
      <ListTable<BonusRow>
        label="Bonuses"
        noun="bonuses"
        columns={columns}
        rows={rows.data}
        loading={rows.isFetching}
        error={rows.error ? errorMessage(rows.error, 'The bonuses could not be loaded.') : null}
        empty={{
          title: 'No bonuses in this window',
          description: 'No merchant earned a bonus in it, or its run has not happened yet.',
        }}
        rowKey={(r) => r.id}
        rowLabel={rowName}
        search={MERCHANT_SEARCH}
      />
      {work.noteModal(canEdit)}
      <MatchesModal
        subject={matchesOf ? rowName(matchesOf) : null}
        matches={matchesOf ? matches.data : undefined}
        loading={matches.isFetching}
        error={matches.error ? errorMessage(matches.error, 'The matches could not be loaded.') : null}
        onClose={() => setMatchesOf(null)}
      />
    </>
  );
}

/** A month's extra bonuses (Monthly Extra). */
function ExtraTable({ date, canEdit }: { date: string; canEdit: boolean }) {
  const key = bonusKeys.extra(date);
  const rows = useQuery({ queryKey: key, queryFn: () => call(bonusEndpoints.getExtraBonus, { date }) });
  const work = useRowWork(key);
  const columns: Column<ExtraRow>[] = [
    ...merchantColumns<ExtraRow>(),
    { key: 'bonus_date', header: 'Bonus Date', render: (r) => dateCell(r.bonus_date), nowrap: true },
    {
      key: 'bonus_type',
      header: 'Bonus Type',
      render: (r) => EXTRA_BONUS_TYPE_LABELS[r.bonus_type as ExtraBonusType] ?? r.bonus_type,
      nowrap: true,
    },
    {
      key: 'extra_bonus',
      header: 'Extra Bonus',
      render: (r) => moneyCell(r.extra_bonus),
      align: 'right',
      nowrap: true,
    },
    { key: 'reg_bonus_paid', header: 'Reg. Bonus Paid', render: (r) => r.reg_bonus_paid, align: 'center' },
    { key: 'explanation', header: 'Why', render: (r) => <WhyText text={r.explanation} /> },
    {
      key: 'note',
      header: 'Note',
      align: 'center',
      render: (r) => <NoteButton row={r} onOpen={() => work.openNote(r)} />,
    },
  ];
  return (
    <>
      <WindowCaption period="ME" date={date} />
      <FailureAlert message={work.failure} onClose={work.clearFailure} />
      <ListTable<ExtraRow>
        label="Monthly extra bonuses"
        noun="extra bonuses"
        columns={columns}
        rows={rows.data}
        loading={rows.isFetching}
        error={rows.error ? errorMessage(rows.error, 'The extra bonuses could not be loaded.') : null}
        empty={{
          title: 'No extra bonuses for this month',
          description:
            'No ISO reached its number of deals, or the extra run for this month has not happened yet.',
        }}
        rowKey={(r) => r.id}
        rowLabel={rowName}
        search={MERCHANT_SEARCH}
      />
      {work.noteModal(canEdit)}
    </>
  );
}
