import { jobEndpoints } from '@paydesk/domain';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../app/api';
import { jobKeys } from '../../app/queryKeys';
import { statusPollInterval } from './jobState';

/**
 * The state and progress of one background job (the user's own, or any for an admin), asked for every
 * second while it is queued or running and no more once it has finished. `id` null: nothing to follow yet.
 */
export function useJobStatus(id: string | null) {
  return useQuery({
    queryKey: jobKeys.status(id ?? ''),
    queryFn: () => call(jobEndpoints.status, { id: id ?? '' }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.error ? false : statusPollInterval(query.state.data)),
  });
}
