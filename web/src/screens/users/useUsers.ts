import {
  adminPaths,
  type IsoOption,
  type MessageAnswer,
  type UpdateUserBody,
  type UserRow,
} from '@paydesk/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';

export interface UpdateUserAnswer extends MessageAnswer {
  user: UserRow;
}

export function useUsers() {
  return useQuery({ queryKey: adminKeys.users(), queryFn: () => get<UserRow[]>(adminPaths.users) });
}

export function useIsos() {
  return useQuery({
    queryKey: adminKeys.isos(),
    queryFn: () => get<IsoOption[]>(adminPaths.isos),
    staleTime: 5 * 60 * 1000,
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => post<UpdateUserAnswer>(adminPaths.updateUser, body),
    // The whole admin area: the audit log records the change too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
