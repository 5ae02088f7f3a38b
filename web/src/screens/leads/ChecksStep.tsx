import { Badge, Button, FileButton, Group, Loader, Progress, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  allAutomaticChecksFinished,
  CHECK_DESCRIPTIONS,
  CHECK_POLL_INTERVAL_MS,
  CHECK_TYPES,
  CHECK_UNKNOWN_ERROR,
  type CheckType,
  canRerun,
  isAutomaticCheck,
  splitDocumentNames,
} from '@paydesk/domain/leads/checks';
import { type CheckRow, leadsEndpoints, leadsPaths } from '@paydesk/domain/leads/contracts';
import type { LeadStep } from '@paydesk/domain/leads/steps';
import { IconPlayerPlay, IconRefresh, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { leadsKeys } from '../../app/queryKeys';
import { postForm } from '../../app/upload';
import { FormAlert } from '../../components/FormAlert';
import { DocumentButton } from './DocumentButton';
import { CHECK_STATUS_LOOK, formatRuntime, isPdfName, keepPolling, PICKUP_WAIT_MS } from './leadView';

interface ChecksStepProps {
  leadId: string;
  step: LeadStep;
  onMoved: (step: LeadStep & { lead_id: string }) => void;
  /** Shows another step without moving the lead. */
  onView: (step: number) => void;
  /** Asks the server for the step again (it completes Run Validations when the four checks finish). */
  onRefreshStep: () => void;
}

/** Read by screen readers, not drawn. */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const emptyCheck = (check_type: CheckType): CheckRow => ({
  check_type,
  document_name: null,
  error_msg: null,
  runtime: null,
  runtime_status: null,
  result: null,
  started_at: null,
  finished_at: null,
});

/**
 * Run Validations (spec §2.4, §4): the four automatic checks run as background jobs on the server; the screen
 * asks every 2 s while one runs. LexisNexis is a report the RM runs elsewhere and uploads as a PDF.
 */
export function ChecksStep({ leadId, step, onMoved, onView, onRefreshStep }: ChecksStepProps) {
  const queryClient = useQueryClient();
  // Checks queued before the step opened (by this RM a moment ago, or by another) are waited for too.
  const [pickupDeadline, setPickupDeadline] = useState<number | null>(() => Date.now() + PICKUP_WAIT_MS);
  const [problem, setProblem] = useState<string | null>(null);
  const [queueing, setQueueing] = useState<string | null>(null);
  const [moving, setMoving] = useState(false);
  const checks = useQuery({
    queryKey: leadsKeys.checks(leadId),
    queryFn: () => call(leadsEndpoints.getChecks, { lead_id: leadId }),
    refetchInterval: (query) =>
      keepPolling(query.state.data, pickupDeadline, Date.now()) ? CHECK_POLL_INTERVAL_MS : false,
  });
  const decided = step.current_step === 3;

  const finished = checks.data ? allAutomaticChecksFinished(checks.data.checks, new Date()) : false;
  const stepBehind = finished && step.current_step === 1 && !step.completed;
  const answeredAt = checks.dataUpdatedAt;
  useEffect(() => {
    if (stepBehind && answeredAt > 0) onRefreshStep();
  }, [stepBehind, answeredAt, onRefreshStep]);

  const run = async (checkName: CheckType | 'All') => {
    if (checkName === 'LexisNexis') return;
    setProblem(null);
    setQueueing(checkName);
    try {
      const answer = await call(leadsEndpoints.runChecks, { lead_id: leadId, check_name: checkName });
      setPickupDeadline(Date.now() + PICKUP_WAIT_MS);
      queryClient.setQueryData(leadsKeys.checks(leadId), answer);
    } catch (error) {
      setProblem(errorMessage(error, 'The check could not be started. Try again.'));
    } finally {
      setQueueing(null);
    }
  };

  const toSend = async () => {
    if (step.current_step >= 2) {
      onView(2);
      return;
    }
    setMoving(true);
    setProblem(null);
    try {
      onMoved(
        await call(leadsEndpoints.addCurrentStep, { lead_id: leadId, current_step: 2, completed: false }),
      );
    } catch (error) {
      setProblem(errorMessage(error, 'The lead could not move on. Try again.'));
    } finally {
      setMoving(false);
    }
  };

  if (checks.error)
    return (
      <FormAlert kind="error">{errorMessage(checks.error, 'The checks could not be loaded.')}</FormAlert>
    );
  if (!checks.data) return <Loader size="sm" aria-label="Loading the checks" />;
  const byType = new Map(checks.data.checks.map((check) => [check.check_type, check]));
  const rows = CHECK_TYPES.map((type) => byType.get(type) ?? emptyCheck(type));
  const anyRunning = rows.some((r) => r.runtime_status === 'started' || r.runtime_status === 'initiated');

  return (
    <Stack gap="md" mt="md">
      <Group justify="space-between">
        <Text c="dimmed" fz="sm">
          DataX, Match, TinCheck and Giact run on the server; when all four have finished this step is
          complete. LexisNexis is run by hand and its report uploaded as a PDF.
        </Text>
        {!decided && (
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => run('All')}
            loading={queueing === 'All'}
            disabled={anyRunning}
          >
            Run all checks
          </Button>
        )}
      </Group>
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="sm" aria-label="Checks" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Check</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Runtime</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Error</Table.Th>
              <Table.Th>Documents</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((check) => (
              <CheckLine
                key={check.check_type}
                leadId={leadId}
                check={check}
                decided={decided}
                queueing={queueing === check.check_type}
                onRun={() => run(check.check_type)}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {problem && <FormAlert kind="error">{problem}</FormAlert>}
      <Group justify="space-between">
        <Text fz="sm" c={finished ? 'teal' : 'dimmed'}>
          {finished
            ? 'All four automatic checks have finished.'
            : checks.data.polling
              ? 'Checks are running; this page follows them every 2 seconds.'
              : 'Send for Approval opens once DataX, Match, TinCheck and Giact have finished.'}
        </Text>
        <Button onClick={toSend} loading={moving} disabled={!finished && step.current_step < 2}>
          Continue to Send for Approval
        </Button>
      </Group>
    </Stack>
  );
}

function CheckLine({
  leadId,
  check,
  decided,
  queueing,
  onRun,
}: {
  leadId: string;
  check: CheckRow;
  decided: boolean;
  queueing: boolean;
  onRun: () => void;
}) {
  const status = check.runtime_status;
  const look = status ? CHECK_STATUS_LOOK[status] : null;
  const error = status === 'stopped' ? (check.error_msg ?? CHECK_UNKNOWN_ERROR) : check.error_msg;
  return (
    <Table.Tr data-check={check.check_type}>
      <Table.Td>
        <Text fw={600} fz="sm">
          {check.check_type}
        </Text>
        <Text fz="xs" c="dimmed" maw={260}>
          {CHECK_DESCRIPTIONS[check.check_type]}
        </Text>
      </Table.Td>
      <Table.Td>
        {look ? (
          <Badge
            color={look.color}
            variant="light"
            radius="sm"
            // Its full word, never cut: the column takes the badge's width.
            style={{ minWidth: 'max-content' }}
            leftSection={status === 'started' ? <Loader size={10} color={look.color} /> : undefined}
          >
            {look.label}
          </Badge>
        ) : (
          <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {isAutomaticCheck(check.check_type) ? 'Not run' : 'Not uploaded'}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text fz="sm" ff="monospace">
          {formatRuntime(check.runtime)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text fz="sm">{check.result ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Text fz="sm" c={error ? 'red' : 'dimmed'}>
          {error ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          {splitDocumentNames(check.document_name).map((name) => (
            <DocumentButton key={name} name={name} />
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        {!decided &&
          (isAutomaticCheck(check.check_type) ? (
            (status === null || canRerun(status)) && (
              <Button
                size="xs"
                variant="light"
                leftSection={status === null ? <IconPlayerPlay size={14} /> : <IconRefresh size={14} />}
                loading={queueing}
                onClick={onRun}
                aria-label={`${status === null ? 'Run' : 'Re-run'} ${check.check_type}`}
              >
                {status === null ? 'Run' : 'Re-run'}
              </Button>
            )
          ) : (
            <LexisNexisUpload leadId={leadId} checkError={error} />
          ))}
      </Table.Td>
    </Table.Tr>
  );
}

/** The LexisNexis report: a PDF only (the server checks its content); a refused upload marks the check stopped. */
function LexisNexisUpload({ leadId, checkError }: { leadId: string; checkError: string | null }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    if (!isPdfName(file.name)) {
      setProblem('Only a PDF file (.pdf) can be uploaded.');
      return;
    }
    const body = new FormData();
    body.append('lead_id', leadId);
    body.append('check_name', 'LexisNexis');
    body.append('file', file);
    setProgress(0);
    try {
      await postForm(leadsPaths.uploadDocument, body, setProgress);
      notifications.show({ color: 'teal', message: 'The LexisNexis report was uploaded.' });
    } catch (error) {
      setProblem(errorMessage(error, 'The report could not be uploaded.'));
    } finally {
      setProgress(null);
      // Refused or not, the check changed (uploaded, or stopped).
      await queryClient.invalidateQueries({ queryKey: leadsKeys.checks(leadId) });
    }
  };

  return (
    <Stack gap={4} maw={240}>
      <FileButton onChange={upload} accept="application/pdf,.pdf">
        {(props) => (
          <Button
            {...props}
            size="xs"
            variant="light"
            leftSection={<IconUpload size={14} />}
            loading={progress !== null}
          >
            Upload PDF
          </Button>
        )}
      </FileButton>
      {progress !== null && <Progress value={progress * 100} size="sm" aria-label="Upload progress" />}
      {/* A refusal the server recorded shows in the Error column; this says it at once, and no twice. */}
      {problem && (
        <Text fz="xs" c="red" role="alert" style={problem === checkError ? visuallyHidden : undefined}>
          {problem}
        </Text>
      )}
    </Stack>
  );
}
