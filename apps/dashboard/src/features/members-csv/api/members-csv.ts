import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_IMPORT_TEMPLATE_HEADER, type MemberImportSettings } from '@grove/contracts';
import { api, membersKey, unwrap, unwrapDownload } from '@grove/web-data-access';

/** How often the progress bar asks where an import stands (ms). */
const PROGRESS_POLL_MS = 500;
/** The query key of an import's status. */
const importStatusKey = (importId: string | null) => ['members-csv', 'import', importId];

/** Saves a file the browser holds under `fileName` (the browser's download). */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads every member as CSV (`GET /api/members-csv/export`) and saves it under the name the
 * API gives (`grove-members-<date>.csv`).
 */
export function useExportMembers() {
  return useMutation({
    mutationFn: async () => {
      const { blob, fileName } = await unwrapDownload(
        api.GET('/members-csv/export', { parseAs: 'blob' }),
        'grove-members.csv',
      );
      saveFile(blob, fileName);
    },
  });
}

/** The template's file name. */
export const TEMPLATE_FILE_NAME = 'grove-members-template.csv';

/**
 * Saves the import template: `MEMBER_IMPORT_TEMPLATE_HEADER` as one CSV line with a UTF-8
 * byte-order mark (Excel then reads names such as "Siobhán" as written). Made in the browser: the
 * header is fixed text without commas or quotes.
 */
export function downloadTemplate(): void {
  const text = `\uFEFF${MEMBER_IMPORT_TEMPLATE_HEADER.join(',')}\r\n`;
  saveFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), TEMPLATE_FILE_NAME);
}

/**
 * Downloads an upload's failed rows (`GET /api/members-csv/imports/:id/failed-rows`: its columns
 * plus 'Line' and 'Reason', of its last dry run or its run) as `grove-failed-rows.csv`.
 */
export function useDownloadFailedRows() {
  return useMutation({
    mutationFn: async (importId: string) => {
      const { blob, fileName } = await unwrapDownload(
        api.GET('/members-csv/imports/{id}/failed-rows', {
          params: { path: { id: importId } },
          parseAs: 'blob',
        }),
        'grove-failed-rows.csv',
      );
      saveFile(blob, fileName);
    },
  });
}

/** Uploads a CSV file (`POST /api/members-csv/imports`, sent as text/csv); nothing is imported. */
export function useUploadCsv() {
  return useMutation({
    mutationFn: (file: Blob) =>
      unwrap(
        api.POST('/members-csv/imports', {
          // The contract types the text/csv body as a string; the file's own bytes are sent as
          // they are (a spreadsheet saved in another encoding stays as saved).
          body: file as unknown as string,
          bodySerializer: (raw) => raw,
          headers: { 'Content-Type': 'text/csv' },
        }),
      ),
  });
}

/**
 * The dry run of an upload with its settings (`POST …/dry-run`: mapping, discount for every row,
 * locale): each row's outcome, nothing written.
 */
export function useDryRun() {
  return useMutation({
    mutationFn: ({ importId, settings }: { importId: string; settings: MemberImportSettings }) =>
      unwrap(
        api.POST('/members-csv/imports/{id}/dry-run', {
          params: { path: { id: importId } },
          body: settings,
        }),
      ),
  });
}

/** Starts the import of an upload's good rows with its settings (`POST …/run`, 202). */
export function useRunImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ importId, settings }: { importId: string; settings: MemberImportSettings }) =>
      unwrap(
        api.POST('/members-csv/imports/{id}/run', {
          params: { path: { id: importId } },
          body: settings,
        }),
      ),
    // The answer is the import's status: a run again after 'failed' polls from 'queued' on.
    onSuccess: (status) => client.setQueryData(importStatusKey(status.importId), status),
  });
}

/**
 * Where a started import stands (`GET /api/members-csv/imports/:id`), polled until it is done or
 * failed; the members list reloads once it is done.
 */
export function useImportStatus(importId: string | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: importStatusKey(importId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/members-csv/imports/{id}', { params: { path: { id: importId ?? '' } }, signal }),
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
