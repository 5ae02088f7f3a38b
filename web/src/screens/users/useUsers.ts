import { adminEndpoints, type UpdateUserBody } from '@paydesk/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';

export function useUsers() {
  return useQuery({ queryKey: adminKeys.users(), queryFn: () => call(adminEndpoints.users) });
}

export function useIsos() {
  return useQuery({
    queryKey: adminKeys.isos(),
    queryFn: () => call(adminEndpoints.isos),
    staleTime: 5 * 60 * 1000,
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => call(adminEndpoints.updateUser, body),
    // The whole admin area: the audit log records the change too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
