import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateMemberRequest,
  MemberInput,
  ListMembersQuery,
  MemberRow,
  MembersPage,
} from '@grove/contracts';
import { apiFetch, membersKey } from '@grove/web-data-access';

/** A page of trees (`GET /api/members`), kept on screen while the next page loads. */
export function useMembers(query: ListMembersQuery) {
  return useQuery({
    queryKey: [...membersKey, 'list', query],
    queryFn: ({ signal }) => apiFetch<MembersPage>('/api/members', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

function useMembersMutation<TVariables, TResult>(
  mutationFn: (variables: TVariables) => Promise<TResult>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey }),
  });
}

/** Adds a tree (`POST /api/members`), optionally as a branch of `referringMemberId`. */
export function useCreateMember() {
  return useMembersMutation((body: CreateMemberRequest) =>
    apiFetch<MemberRow>('/api/members', { method: 'POST', body }),
  );
}

/** Adds a branch to a tree; the branch also becomes a tree (`POST /api/members/:id/branches`). */
export function useAddBranch() {
  return useMembersMutation(({ treeId, ...body }: MemberInput & { treeId: string }) =>
    apiFetch<MemberRow>(`/api/members/${encodeURIComponent(treeId)}/branches`, {
      method: 'POST',
      body,
    }),
  );
}

/** Detaches a branch from its tree (`DELETE /api/members/:id/branches/:branchId`). */
export function useRemoveBranch() {
  return useMembersMutation(({ treeId, branchId }: { treeId: string; branchId: string }) =>
    apiFetch<void>(
      `/api/members/${encodeURIComponent(treeId)}/branches/${encodeURIComponent(branchId)}`,
      { method: 'DELETE' },
    ),
  );
}

/** Removes a tree and its entry on the tree it was a branch of (`DELETE /api/members/:id`). */
export function useRemoveTree() {
  return useMembersMutation((treeId: string) =>
    apiFetch<void>(`/api/members/${encodeURIComponent(treeId)}`, { method: 'DELETE' }),
  );
}
