import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { AuditKind } from '@grove/contracts';
import { api, unwrap, unwrapDownload } from '@grove/web-data-access';

/** The Activity filters (every one optional; `from`/`to` are UTC days YYYY-MM-DD, inclusive). */
export interface ActivityFilters {
  memberId?: string;
  author?: string;
  kind?: AuditKind;
  from?: string;
  to?: string;
}

/** Entries per page of the Activity table. */
export const ACTIVITY_PAGE_SIZE = 25;

const clean = (filters: ActivityFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as ActivityFilters;

/** One page of the audit log (`GET /api/audit-log`), newest first. */
export function useActivity(filters: ActivityFilters, page: number) {
  const query = { ...clean(filters), page, pageSize: ACTIVITY_PAGE_SIZE };
  return useQuery({
    queryKey: ['audit-log', query],
    queryFn: ({ signal }) => unwrap(api.GET('/audit-log', { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** Everyone who wrote in the log, for the person filter (`GET /api/audit-log/authors`). */
export function useActivityAuthors() {
  return useQuery({
    queryKey: ['audit-log', 'authors'],
    queryFn: ({ signal }) => unwrap(api.GET('/audit-log/authors', { signal })),
  });
}

/** Downloads the filtered log as CSV (`GET /api/audit-log/export`). */
export function useExportActivity() {
  return useMutation({
    mutationFn: async (filters: ActivityFilters) => {
      const { blob, fileName } = await unwrapDownload(
        api.GET('/audit-log/export', { params: { query: clean(filters) }, parseAs: 'blob' }),
        'grove-activity.csv',
      );
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
}
