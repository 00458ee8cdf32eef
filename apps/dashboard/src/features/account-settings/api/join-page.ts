import { useQuery } from '@tanstack/react-query';
import { apiUrl } from '@grove/api-contract';
import { api, unwrap } from '@grove/web-data-access';

/** The business's own join page link, a link without a member (`GET /api/join-page`). */
export function useJoinPageLink() {
  return useQuery({
    queryKey: ['settings', 'join-page'] as const,
    queryFn: ({ signal }) => unwrap(api.GET('/join-page', { signal })),
  });
}

/** The join page's QR code (SVG), as the download link's address (`GET /api/join-page/qr.svg`). */
export const joinPageQrUrl = (): string => apiUrl('/join-page/qr.svg');
