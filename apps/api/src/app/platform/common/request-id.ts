import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** An `X-Request-Id` Grove takes as it is: 8 to 64 letters, digits and dashes (a UUID, a proxy's id). */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9-]{8,64}$/;

/** The request id header, in requests and replies. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The id of a request: its `X-Request-Id` when that is 8–64 letters, digits or dashes (what a
 * proxy or a client correlating its own logs sends), else a new UUID, so a header cannot put
 * arbitrary text (a newline, a token, a megabyte) into the log.
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTED_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The id assigned to `request` (by {@link requestIds}), or one from its header when none was. */
export function requestIdOf(request: IncomingMessage & { id?: unknown }): string {
  if (typeof request.id === 'string') return request.id;
  return requestIdFrom(request.headers['x-request-id']);
}

/**
 * Express middleware giving every request its id (`request.id`, see {@link requestIdFrom}) and
 * answering it in the `X-Request-Id` header, whatever the reply. The request log line (pino-http
 * keeps an existing `request.id`) and a 500's error line carry the same id, so an operator finds a
 * user's failed request from the header. Install it before the request logger.
 */
export function requestIds(): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    const id = requestIdFrom(request.headers['x-request-id']);
    (request as Request & { id: string }).id = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}
