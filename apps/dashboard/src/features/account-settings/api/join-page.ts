import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiUrl } from '@grove/api-contract';
import { api, unwrap } from '@grove/web-data-access';

const joinPageKey = ['settings', 'join-page'] as const;

/** The business's own join page link, a link without a member (`GET /api/join-page`). */
export function useJoinPageLink() {
  return useQuery({
    queryKey: joinPageKey,
    queryFn: ({ signal }) => unwrap(api.GET('/join-page', { signal })),
  });
}

/**
 * Replaces the join page's link (`POST /api/join-page/new-link` `{ confirm: true }`): the old link
 * and its printed QR codes stop working. The link shown becomes the new one. Rejects with an
 * ApiError.
 */
export function useNewJoinPageLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/join-page/new-link', { body: { confirm: true } })),
    onSuccess: (link) => client.setQueryData(joinPageKey, link),
  });
}

/** The join page's QR code (SVG), as the download link's address (`GET /api/join-page/qr.svg`). */
export const joinPageQrUrl = (): string => apiUrl('/join-page/qr.svg');
