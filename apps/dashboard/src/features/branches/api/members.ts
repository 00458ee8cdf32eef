import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateMemberRequest, MemberInput, ListMembersQuery } from '@grove/contracts';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/** A page of trees (`GET /api/members`), kept on screen while the next page loads. */
export function useMembers(query: ListMembersQuery) {
  return useQuery({
    queryKey: [...membersKey, 'list', query],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/members', { params: { query: { ...query } }, signal })),
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
  return useMembersMutation((body: CreateMemberRequest) => unwrap(api.POST('/members', { body })));
}

/** Adds a branch to a tree; the branch also becomes a tree (`POST /api/members/:id/branches`). */
export function useAddBranch() {
  return useMembersMutation(({ treeId, ...body }: MemberInput & { treeId: string }) =>
    unwrap(api.POST('/members/{id}/branches', { params: { path: { id: treeId } }, body })),
  );
}

/** Detaches a branch from its tree (`DELETE /api/members/:id/branches/:branchId`). */
export function useRemoveBranch() {
  return useMembersMutation(({ treeId, branchId }: { treeId: string; branchId: string }) =>
    unwrap(
      api.DELETE('/members/{id}/branches/{branchId}', {
        params: { path: { id: treeId, branchId } },
      }),
    ),
  );
}

/** Removes a tree and its entry on the tree it was a branch of (`DELETE /api/members/:id`). */
export function useRemoveTree() {
  return useMembersMutation((treeId: string) =>
    unwrap(api.DELETE('/members/{id}', { params: { path: { id: treeId } } })),
  );
}
