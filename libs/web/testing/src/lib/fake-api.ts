import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createOpenApiHttp } from 'openapi-msw';
import type { paths, Schema } from '@grove/api-contract';

/**
 * The fake API of every web spec: MSW handlers typed by the API's contract (`@grove/api-contract`
 * paths, through openapi-msw), so a fake answers only routes, parameters and reply shapes the
 * real API has. Paths are relative to `/api`, as the client's:
 * `http.get('/members/{id}', ({ params, response }) => response(200).json(row))`.
 */
export const http = createOpenApiHttp<paths>({ baseUrl: 'http://localhost/api' });

/** The one MSW server of a spec file (started and reset by the web Jest preset's setup). */
export const server = setupServer();

/**
 * An error reply in the contract's one error shape (`ApiErrorBody`, docs/rest-api.md#errors).
 * @param status 4xx or 5xx
 * @param message the text the user sees
 * @param fieldErrors per-field messages (a 400 for a bad body)
 */
export function apiError(status: number, message: string, fieldErrors?: Record<string, string>) {
  const body: Schema<'ApiErrorBody'> = fieldErrors
    ? { statusCode: status, message, fieldErrors }
    : { statusCode: status, message };
  return HttpResponse.json(body, { status }) as HttpResponse<Schema<'ApiErrorBody'>>;
}

export { HttpResponse };
