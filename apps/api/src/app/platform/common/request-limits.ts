import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { GroveException } from './grove.exception';

/**
 * The limits of one HTTP request, in one place (issue 31 item 1; docs/rest-api.md#request-limits).
 * `setupApp` applies them to the API's HTTP server, its body parsers and its query parser; each
 * request over one gets a 4xx with `ApiErrorBody` JSON and changes nothing. The CSV upload, the
 * one body not read by the JSON parser, has its own limits in `@grove/contracts`
 * (`CSV_IMPORT_MAX_BYTES` and the rest: docs/product.md#members-csv).
 */
export const REQUEST_LIMITS = {
  /**
   * Largest JSON or form body (bytes; body-parser's `limit`, 100 KB as its default). Over it:
   * 413 'The request body is larger than the limit of 100 KB' (`badInputReply`).
   */
  bodyBytes: 100 * 1024,
  /**
   * Most parameters of a form (urlencoded) body (body-parser's `parameterLimit`, its default).
   * Over it: 413 'The request body has too many parameters' (`badInputReply`).
   */
  formParameters: 1_000,
  /**
   * Most parameters of a query string (`a=1&b=2` is two; Node's querystring `maxKeys` default,
   * which would drop the rest unseen). Over it: 400 `TOO_MANY_QUERY_PARAMETERS`.
   */
  queryParameters: 1_000,
  /**
   * Largest request line and headers together (bytes; Node's `--max-http-header-size` default).
   * Over it: 431 `HEADERS_TOO_LARGE`, answered by the HTTP server before Express sees the request.
   */
  headerBytes: 16 * 1024,
} as const;

/** The message of a query string over `REQUEST_LIMITS.queryParameters`. */
export const TOO_MANY_QUERY_PARAMETERS = `The query string has more than ${REQUEST_LIMITS.queryParameters.toLocaleString('en-US')} parameters`;

/** The message of request headers over `REQUEST_LIMITS.headerBytes`. */
export const HEADERS_TOO_LARGE = `The request headers are larger than the limit of ${REQUEST_LIMITS.headerBytes / 1024} KB`;

/** The message of a request the HTTP parser could not read (not HTTP/1.1 as written). */
export const REQUEST_UNREADABLE = 'The request could not be read';

/** A query string with more than `REQUEST_LIMITS.queryParameters` parameters. → 400 */
export class TooManyQueryParametersException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;

  constructor() {
    super(TOO_MANY_QUERY_PARAMETERS);
  }
}

/** The parameters of a query string as Node's querystring counts them (non-empty `&` pieces). */
function countParameters(query: string): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = query.indexOf('&', start);
    if ((end === -1 ? query.length : end) > start) count++;
    if (end === -1) return count;
    start = end + 1;
  }
}

/**
 * Express's query parser with the limit stated: Node's querystring (Express 5's 'simple' parser)
 * reading at most `REQUEST_LIMITS.queryParameters` parameters; `queryParameterLimit` refuses a
 * longer query string before any route reads it, so none is dropped unseen.
 */
export function parseQuery(query: string): Record<string, string | string[]> {
  return parseQueryString(query, undefined, undefined, {
    maxKeys: REQUEST_LIMITS.queryParameters,
  }) as Record<string, string | string[]>;
}

/**
 * Express middleware: a request whose query string has more than
 * `REQUEST_LIMITS.queryParameters` parameters goes to the error handler as
 * `TooManyQueryParametersException` (400 `TOO_MANY_QUERY_PARAMETERS`).
 */
export function queryParameterLimit(): (
  request: Request,
  response: Response,
  next: NextFunction,
) => void {
  return (request, _response, next) => {
    const at = request.url.indexOf('?');
    if (at !== -1 && countParameters(request.url.slice(at + 1)) > REQUEST_LIMITS.queryParameters) {
      next(new TooManyQueryParametersException());
      return;
    }
    next();
  };
}

/** A raw HTTP/1.1 reply with an `ApiErrorBody` JSON body, closing the connection. */
function rawJsonReply(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ statusCode: status, message });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Bounds what the HTTP server reads of a request before Express: the request line and headers at
 * most `REQUEST_LIMITS.headerBytes` (then 431 `HEADERS_TOO_LARGE`), and a request its parser
 * refuses (not HTTP/1.1 as written) answered 400 `REQUEST_UNREADABLE`, a request too slow to
 * arrive 408; each as JSON, where Node would answer an empty body. As Node's own handler
 * (`socketOnError` in Node's `_http_server.js`), a reply is written only when none of the
 * connection's response has been sent yet; the connection is then closed.
 */
export function boundRequestHeaders(server: Server): void {
  // Read by the server for each new connection (Node's `http.createServer({ maxHeaderSize })`;
  // Nest creates the server without options).
  (server as Server & { maxHeaderSize?: number }).maxHeaderSize = REQUEST_LIMITS.headerBytes;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent && error.code !== 'ECONNRESET') {
      const reply =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? rawJsonReply(431, 'Request Header Fields Too Large', HEADERS_TOO_LARGE)
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? rawJsonReply(408, 'Request Timeout', 'The request took too long to arrive')
            : rawJsonReply(400, 'Bad Request', REQUEST_UNREADABLE);
      socket.write(reply);
    }
    socket.destroy();
  });
}
