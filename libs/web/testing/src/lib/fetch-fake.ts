import { http as anyHttp, HttpResponse } from 'msw';

/** What a spec's fetch-shaped fake receives: the path (and query) and what was sent. */
export interface FakeRequestInit {
  method: string;
  /** The body as text (JSON as sent), or undefined for none. */
  body?: string;
  headers: Record<string, string>;
}

/** What a fetch-shaped fake may answer: a Response, or the parts of one a spec builds by hand. */
type FakeReply =
  | Response
  | {
      status: number;
      text?: () => Promise<string>;
      blob?: () => Promise<Blob>;
      headers?: Headers | { get(name: string): string | null };
    };

/**
 * Transitional (issue 29): answers every request of a spec through MSW with a fetch-shaped fake
 * `(path, init) => reply`, so specs written before the contract's typed handlers run against the
 * generated client unchanged in what they assert. New specs use the typed `http` handlers of
 * `fake-api.ts` instead; each spec moved to them drops its fetch-shaped fake.
 * @param fake receives the same-origin path with its query (`/api/members?page=2`) or the full
 *   URL of another origin, and `{ method, body, headers }`
 */
export function fetchFake(fake: (path: string, init: FakeRequestInit) => unknown) {
  return anyHttp.all('*', async ({ request }) => {
    const url = new URL(request.url);
    const path = url.origin === 'http://localhost' ? `${url.pathname}${url.search}` : request.url;
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.text();
    const contentType = request.headers.get('content-type');
    const headers: Record<string, string> =
      body === undefined || !contentType ? {} : { 'Content-Type': contentType };
    const reply = (await fake(path, {
      method: request.method,
      body: body === '' ? undefined : body,
      headers,
    })) as FakeReply;
    if (reply instanceof Response) return reply;
    const replyHeaders = new Headers();
    for (const name of ['Content-Type', 'Content-Disposition', 'Retry-After']) {
      const value = reply.headers?.get(name);
      if (value) replyHeaders.set(name, value);
    }
    if (reply.blob && !reply.text)
      return new HttpResponse(await reply.blob(), { status: reply.status, headers: replyHeaders });
    const text = reply.text ? await reply.text() : '';
    if (text && !replyHeaders.has('Content-Type'))
      replyHeaders.set('Content-Type', 'application/json');
    return new HttpResponse(reply.status === 204 ? null : text, {
      status: reply.status,
      headers: replyHeaders,
    });
  });
}
