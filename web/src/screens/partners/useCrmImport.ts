import {
  type ImportStatus,
  PARTNER_IMPORT_POLL_MS,
  partnerEndpoints,
} from '@paydesk/domain/contracts/partners';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../app/api';
import { partnerKeys } from '../../app/queryKeys';
import { type ImportPhase, phaseOfPoll } from './directory';

export interface CrmImport {
  phase: ImportPhase;
  /** The job's last answer: its progress while started, its error once stopped. */
  job: ImportStatus | null;
  start: () => void;
}

/**
 * Spec §4 Salesforce partner import: start → uuid → started, polled every second until the job's
 * runtime_status is no longer 'started', which is then adopted; finished reloads the partners; a failed start
 * or poll is stopped too.
 */
export function useCrmImport(): CrmImport {
  const queryClient = useQueryClient();
  const [uuid, setUuid] = useState<string | null>(null);
  const [phase, setPhase] = useState<ImportPhase>('idle');
  const [job, setJob] = useState<ImportStatus | null>(null);

  const begin = useMutation({
    mutationFn: () => call(partnerEndpoints.importCrm),
    onMutate: () => {
      setJob(null);
      setUuid(null);
    },
    onSuccess: (answer) => {
      setUuid(answer.uuid);
      setPhase('started');
    },
    onError: () => setPhase('stopped'),
  });

  const poll = useQuery({
    queryKey: partnerKeys.importStatus(uuid ?? ''),
    queryFn: () => call(partnerEndpoints.importStatus, { uuid: uuid ?? '' }),
    enabled: phase === 'started' && uuid !== null,
    refetchInterval: PARTNER_IMPORT_POLL_MS,
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    if (phase !== 'started') return;
    if (poll.error) {
      setPhase('stopped');
      return;
    }
    if (!poll.data) return;
    setJob(poll.data[0] ?? null);
    const next = phaseOfPoll(poll.data);
    if (next === 'started') return;
    setPhase(next);
    if (next === 'finished') {
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] === partnerKeys.all[0] && query.queryKey[1] !== 'import',
      });
    }
  }, [phase, poll.data, poll.error, queryClient]);

  return {
    phase: begin.isPending ? 'started' : phase,
    job,
    start: () => {
      setPhase('idle');
      begin.mutate();
    },
  };
}
