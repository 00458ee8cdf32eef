import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateMemberRequest, MemberInput, ListMembersQuery } from '@grove/contracts';
import { api, membersKey, unwrap } from '@grove/web-data-access';

/** Poll interval (ms) while a row of the page waits to be added to Mindbody (issue 33 item 4). */
const MINDBODY_PENDING_POLL_MS = 3_000;

/**
 * A page of trees (`GET /api/members`), kept on screen while the next page loads; read again every
 * 3 s while one of its members is being added to Mindbody.
 */
export function useMembers(query: ListMembersQuery) {
  return useQuery({
    queryKey: [...membersKey, 'list', query],
    queryFn: ({ signal }) =>
      unwrap(api.GET('/members', { params: { query: { ...query } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) =>
      current.state.data?.items.some((row) => row.mindbodyClientRequest?.state === 'pending')
        ? MINDBODY_PENDING_POLL_MS
        : false,
  });
}

/**
 * 'Try again' for a member Mindbody did not take (`POST /api/mindbody/clients/:memberId/retry`,
 * owners); the trees reload.
 */
export function useRetryMindbodyClient() {
  return useMembersMutation((memberId: string) =>
    unwrap(api.POST('/mindbody/clients/{memberId}/retry', { params: { path: { memberId } } })),
  );
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
  return useMembersMutation(
    ({ treeId, ...body }: MemberInput & { treeId: string; confirmErased?: boolean }) =>
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

/** Up to 8 members whose name or email holds `text` (`GET /api/members?search`), for a picker. */
export function useMemberSearch(text: string) {
  const search = text.trim();
  return useQuery({
    queryKey: [...membersKey, 'picker', search],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/members', {
          params: { query: { search, pageSize: 8, sort: 'memberName', order: 'asc' } },
          signal,
        }),
      ),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** Referrals to match (`GET /api/referrals-to-match`), under `membersKey`: every member change reloads it. */
const referralsToMatchKey = [...membersKey, 'referrals-to-match'] as const;

/** Members whose "referred by" matched no member, oldest first (docs/product.md#referrals-to-match). */
export function useReferralsToMatch() {
  return useQuery({
    queryKey: referralsToMatchKey,
    queryFn: ({ signal }) => unwrap(api.GET('/referrals-to-match', { signal })),
  });
}

/** Matches a waiting referral: member `memberId` becomes `referrerId`'s branch. */
export function useMatchReferral() {
  return useMembersMutation(({ memberId, referrerId }: { memberId: string; referrerId: string }) =>
    unwrap(
      api.POST('/referrals-to-match/{memberId}/match', {
        params: { path: { memberId } },
        body: { referrerId },
      }),
    ),
  );
}

/** Dismisses a waiting referral: the member stays, referred by no one. */
export function useDismissReferral() {
  return useMembersMutation((memberId: string) =>
    unwrap(api.POST('/referrals-to-match/{memberId}/dismiss', { params: { path: { memberId } } })),
  );
}
