/**
 * What may reach a log line (OWASP ASVS 4.0.3 V7.1.1 / V7.1.2: no credentials, session tokens or
 * personal data in logs): pino's redaction paths, an error serializer that keeps only an error's
 * kind and names (never a query's parameters, a constraint's failing row, a request body), and
 * request URLs and route parameters without free-text search terms or tokens.
 */

/** pino `redact` paths of the request log and of any object logged: headers and body fields holding secrets. */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-mindbody-signature"]',
  'res.headers["set-cookie"]',
  // pino-http's request serializer also logs Express's parsed query (see `redactUrl`).
  'req.query.search',
  'req.query.token',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.refreshToken',
  '*.accessToken',
];

/** Query parameters whose values are free text a user typed (a member's name or email) and never logged. */
const FREE_TEXT_PARAMS = ['search'];

/** Query parameters whose values are tokens (a magic link's, should one ever come as a query). */
const TOKEN_PARAMS = ['token'];

/**
 * Paths whose segment after the prefix is a token that acts for someone (issue 24 part 5, OWASP
 * ASVS 4.0.3 V7.1.1: no session tokens in logs): the one-click unsubscribe (`/api/member-emails/
 * unsubscribe/<token>`, its `/status`) and its page (`/member/unsubscribe/<token>`), and the
 * referral codes of the join page (`/referral/<code>`) and its API (`/api/referrals/<code>`,
 * `…/join`), which credit joins to a member. A magic link's token travels in the URL fragment
 * (`/member#token=…`, never sent) and in request bodies (`POST /member/landing`,
 * `POST /api/member/session`), which are not logged.
 */
const TOKENED_PATHS: readonly RegExp[] = [
  // With or without the `/api` prefix (route parameters are matched without it).
  /^((?:\/api)?\/member-emails\/unsubscribe\/)[^/?#]+/,
  /^(\/member\/unsubscribe\/)[^/?#]+/,
  /^(\/referral\/)[^/?#]+/,
  /^((?:\/api)?\/referrals\/)[^/?#]+/,
];

/** Route parameters that hold a token (`:token` of the unsubscribe routes, `:code` of the join). */
const TOKEN_ROUTE_PARAMS = new Set(['token', 'code']);

/** `path` (no query) with the token segment of a tokened path replaced by `[redacted]`. */
function redactPath(path: string): string {
  for (const pattern of TOKENED_PATHS) {
    if (pattern.test(path)) return path.replace(pattern, '$1[redacted]');
  }
  return path;
}

/**
 * `url` as it may be logged: the token segment of a tokened path (`TOKENED_PATHS`) and the values
 * of free-text and token query parameters replaced by `[redacted]`:
 * `/api/members?search=ann%40x.com&page=2` → `/api/members?search=[redacted]&page=2`;
 * `/api/member-emails/unsubscribe/AbC…/status` → `/api/member-emails/unsubscribe/[redacted]/status`.
 * Other URLs come back unchanged. Also for a response's `Location` (the unsubscribe link
 * redirects to its page, `/member/unsubscribe/<token>`).
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  const path = redactPath(query < 0 ? url : url.slice(0, query));
  if (query < 0) return path;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const name of [...FREE_TEXT_PARAMS, ...TOKEN_PARAMS]) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed
    ? `${path}?${params.toString().replace(/%5Bredacted%5D/g, '[redacted]')}`
    : `${path}${url.slice(query)}`;
}

/**
 * Express's route parameters as they may be logged (pino-http logs `req.params`): a `:token` or
 * `:code` value replaced by `[redacted]`, and a wildcard's segments (`splat`: the whole path, for
 * the request logger's own `{*splat}` route) redacted as `redactUrl` redacts the path.
 * @param params e.g. `{ splat: ['api', 'member-emails', 'unsubscribe', 'AbC…'] }`
 * @returns a new object; e.g. `{ splat: ['api', 'member-emails', 'unsubscribe', '[redacted]'] }`
 */
export function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (TOKEN_ROUTE_PARAMS.has(name)) safe[name] = '[redacted]';
    else if (Array.isArray(value) && value.every((part) => typeof part === 'string'))
      safe[name] = redactPath(`/${value.join('/')}`)
        .slice(1)
        .split('/');
    else if (typeof value === 'string' && value.includes('/'))
      safe[name] = redactPath(value.startsWith('/') ? value : `/${value}`).slice(
        value.startsWith('/') ? 0 : 1,
      );
    else safe[name] = value;
  }
  return safe;
}

/** What a log line keeps of an error. */
export interface SafeError {
  type: string;
  message: string;
  stack?: string;
  /** SQLSTATE (`'23505'`) or Node errno code (`'ECONNREFUSED'`). */
  code?: string;
  /** PostgreSQL's names of what failed (schema names, never values). */
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  /** HTTP status of an HttpException. */
  status?: number;
  cause?: SafeError;
  errors?: SafeError[];
}

const NAME_FIELDS = ['code', 'constraint', 'table', 'column', 'routine'] as const;

/**
 * PostgreSQL puts the offending input in some messages: class 22 (data exception), e.g.
 * `invalid input syntax for type uuid: "ann@example.com"`. Their quoted parts are replaced.
 */
function safeMessage(message: string, code: string | undefined): string {
  return code?.startsWith('22') ? message.replace(/"[^"]*"/g, '"…"') : message;
}

/**
 * An error reduced to what may be logged (pino `err` serializer, TypeORM and pg-boss error lines):
 * its type, message (see `safeMessage`), stack, SQLSTATE or errno code, constraint / table /
 * column / routine names, HTTP status and the same of its `cause` and `errors`. Everything else
 * is dropped: TypeORM's `query` and `parameters`, PostgreSQL's `detail` ('Key (email)=(…)
 * already exists', 'Failing row contains (…)'), `where`, a body-parser error's `body`, an HTTP
 * error's response. The driver error TypeORM wraps lends its code and names.
 */
export function safeError(error: unknown, depth = 0): SafeError {
  if (typeof error !== 'object' || error === null)
    return { type: typeof error, message: String(error) };
  const record = error as Record<string, unknown>;
  const driver = (typeof record['driverError'] === 'object' && record['driverError']) || {};
  const field = (name: string): unknown =>
    record[name] ?? (driver as Record<string, unknown>)[name];
  const code = typeof field('code') === 'string' ? (field('code') as string) : undefined;
  const type = (record.constructor as { name?: string } | undefined)?.name || 'Error';
  const rawMessage = typeof record['message'] === 'string' ? record['message'] : String(error);
  const message = safeMessage(rawMessage, code);
  const safe: SafeError = { type, message };
  if (typeof record['stack'] === 'string') {
    const frames = record['stack'].indexOf('\n    at ');
    safe.stack = `${type}: ${message}${frames >= 0 ? record['stack'].slice(frames) : ''}`;
  }
  for (const name of NAME_FIELDS) {
    const value = field(name);
    if (typeof value === 'string') safe[name] = value;
  }
  const status = record['status'];
  if (typeof status === 'number') safe.status = status;
  if (depth < 5) {
    if (record['cause'] !== undefined) safe.cause = safeError(record['cause'], depth + 1);
    if (Array.isArray(record['errors']))
      safe.errors = record['errors'].map((inner) => safeError(inner, depth + 1));
  }
  return safe;
}

/** One-line form of `safeError` for text log lines: `message [code]`. */
export function safeErrorText(error: unknown): string {
  const safe = safeError(error);
  return safe.code ? `${safe.message} [${safe.code}]` : safe.message;
}
