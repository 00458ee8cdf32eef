import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MemberCsvMapping,
  MemberImportDryRun,
  MemberImportStatus,
  MemberImportUpload,
} from '@grove/contracts';
import { apiDownload, apiFetch, membersKey } from '@grove/web-data-access';

/** How often the progress bar asks where an import stands (ms). */
const PROGRESS_POLL_MS = 500;

/**
 * Downloads every member as CSV (`GET /api/members-csv/export`) and saves it under the name the
 * API gives (`grove-members-<date>.csv`).
 */
export function useExportMembers() {
  return useMutation({
    mutationFn: async () => {
      const { blob, fileName } = await apiDownload('/api/members-csv/export', 'grove-members.csv');
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

/** Uploads a CSV file (`POST /api/members-csv/imports`, sent as text/csv); nothing is imported. */
export function useUploadCsv() {
  return useMutation({
    mutationFn: (file: Blob) =>
      apiFetch<MemberImportUpload>('/api/members-csv/imports', {
        method: 'POST',
        body: file,
        contentType: 'text/csv',
      }),
  });
}

/** The dry run of an upload with a mapping (`POST …/dry-run`): each row's outcome, nothing written. */
export function useDryRun() {
  return useMutation({
    mutationFn: ({ importId, mapping }: { importId: string; mapping: MemberCsvMapping }) =>
      apiFetch<MemberImportDryRun>(
        `/api/members-csv/imports/${encodeURIComponent(importId)}/dry-run`,
        { method: 'POST', body: { mapping } },
      ),
  });
}

/** Starts the import of an upload's good rows (`POST …/run`, 202). */
export function useRunImport() {
  return useMutation({
    mutationFn: ({ importId, mapping }: { importId: string; mapping: MemberCsvMapping }) =>
      apiFetch<MemberImportStatus>(`/api/members-csv/imports/${encodeURIComponent(importId)}/run`, {
        method: 'POST',
        body: { mapping },
      }),
  });
}

/**
 * Where a started import stands (`GET /api/members-csv/imports/:id`), polled until it is done or
 * failed; the members list reloads once it is done.
 */
export function useImportStatus(importId: string | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['members-csv', 'import', importId],
    queryFn: ({ signal }) =>
      apiFetch<MemberImportStatus>(
        `/api/members-csv/imports/${encodeURIComponent(importId ?? '')}`,
        {
          signal,
        },
      ),
    enabled: importId !== null,
    refetchInterval: (current) => {
      const state = current.state.data?.state;
      return state === 'done' || state === 'failed' ? false : PROGRESS_POLL_MS;
    },
  });
  const done = query.data?.state === 'done';
  useEffect(() => {
    if (done) void client.invalidateQueries({ queryKey: membersKey });
  }, [done, client]);
  return query;
}
