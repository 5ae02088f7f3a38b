import {
  Alert,
  Button,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type AnswerOf,
  bonusEndpoints,
  parseMoney,
  RUN_KIND_LABELS,
  RUN_KINDS,
  type RunKind,
  sum,
  toDecimalString,
} from '@paydesk/domain';
import { IconEye, IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column } from '../../components/DataTable';
import { DataTable } from '../../components/DataTable';
import { formatCount } from '../../components/format';
import { JobProgress, useJobStatus } from '../../components/JobProgress';
import { dateCell, moneyCell, plain } from './BonusesTab';
import { WhyText } from './WhyText';

type Preview = AnswerOf<typeof bonusEndpoints.preview>;
type PreviewRow = Preview['bonuses'][number];

const PREVIEW_ROWS = 10;

const PREVIEW_COLUMNS: Column<PreviewRow>[] = [
  { key: 'mid', header: 'MID', render: (r) => r.mid, nowrap: true },
  { key: 'dba_name', header: 'DBA', render: (r) => r.dba_name, nowrap: true },
  { key: 'iso_name', header: 'ISO', render: (r) => r.iso_name, nowrap: true },
  { key: 'bonus_type', header: 'Bonus Type', render: (r) => plain(r.bonus_type), nowrap: true },
  { key: 'bonus_date', header: 'Bonus Date', render: (r) => dateCell(r.bonus_date), nowrap: true },
  {
    key: 'bonus_amount',
    header: 'Bonus',
    render: (r) => moneyCell(r.bonus_amount),
    align: 'right',
    nowrap: true,
  },
  { key: 'explanation', header: 'Why', render: (r) => <WhyText text={r.explanation} /> },
];

/** The exact sum of decimal amounts (docs/money.md). */
const totalOf = (amounts: readonly string[]) => toDecimalString(sum(amounts.map((a) => parseMoney(a))));

/**
 * Runs (admin, manage_jobs): a window computed now as a background job, replacing its unpaid, unworked rows
 * (rows marked do-not-pay or with a note are kept), or previewed without saving anything. An empty date means
 * the last complete window for a run and the next window for a preview.
 */
export function RunModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<RunKind>('W');
  const [date, setDate] = useState('');
  const [busy, setBusy] = useState<'preview' | 'run' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJobStatus(jobId);
  const done = job.data?.state === 'completed';

  useEffect(() => {
    // The run replaced rows and wrote the log: every list may have changed.
    if (done) void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
  }, [done, queryClient]);

  const body = { kind, ...(date === '' ? {} : { date }) };
  const act = async (what: 'preview' | 'run') => {
    setBusy(what);
    setError(null);
    try {
      if (what === 'preview') {
        setJobId(null);
        setPreview(await call(bonusEndpoints.preview, body));
      } else {
        setPreview(null);
        setJobId((await call(bonusEndpoints.run, body)).jobId);
      }
    } catch (failure) {
      setError(errorMessage(failure, 'The server could not do it. Please try again.'));
    } finally {
      setBusy(null);
    }
  };

  const rows: PreviewRow[] = preview ? [...preview.bonuses, ...preview.clawbacks] : [];
  return (
    <Modal opened={opened} onClose={onClose} title="Bonus runs" size="70rem">
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Runs are scheduled (weekly, monthly, extra, clawback). Run a window again after a specification
          changed; its unpaid rows are replaced, and rows marked do-not-pay or with a note are kept as they
          are. Preview computes a window without saving it.
        </Text>
        <Group align="flex-end" gap="sm">
          <SegmentedControl
            aria-label="Run"
            value={kind}
            onChange={(value) => setKind(value as RunKind)}
            data={RUN_KINDS.map((k) => ({ value: k, label: RUN_KIND_LABELS[k] }))}
          />
          <TextInput
            label="A day in the window"
            description="Empty: the last complete window (run), the next one (preview)"
            type="date"
            value={date}
            onChange={(event) => setDate(event.currentTarget.value)}
            w={260}
          />
          <Button
            variant="default"
            leftSection={<IconEye size={16} />}
            loading={busy === 'preview'}
            onClick={() => act('preview')}
          >
            Preview
          </Button>
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            loading={busy === 'run'}
            onClick={() => act('run')}
          >
            Run now
          </Button>
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <JobProgress id={jobId} />
        {preview && (
          <Stack gap="xs">
            <SimpleGrid cols={3}>
              <Text fz="sm">
                <b>Window</b> {preview.window.start} to {preview.window.end}, run on {preview.window.runDate}
              </Text>
              <Text fz="sm">
                <b>{formatCount(preview.bonuses.length)}</b>{' '}
                {preview.bonuses.length === 1 ? 'bonus' : 'bonuses'},{' '}
                {moneyCell(totalOf(preview.bonuses.map((b) => b.bonus_amount)))}
              </Text>
              <Text fz="sm">
                <b>{formatCount(preview.clawbacks.length)}</b>{' '}
                {preview.clawbacks.length === 1 ? 'clawback' : 'clawbacks'},{' '}
                {moneyCell(totalOf(preview.clawbacks.map((c) => c.clawback_amount)))}
              </Text>
            </SimpleGrid>
            <DataTable<PreviewRow>
              label="Preview"
              columns={PREVIEW_COLUMNS}
              rows={rows.slice(0, PREVIEW_ROWS)}
              rowKey={(r, index) => `${r.mid}-${index}`}
              loading={false}
              compact
              empty={{
                title: 'Nothing to pay or claw back',
                description: 'No merchant meets a rule in this window.',
              }}
            />
            {rows.length > PREVIEW_ROWS && (
              <Text fz="xs" c="dimmed">
                The first {PREVIEW_ROWS} of {formatCount(rows.length)} rows.
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
