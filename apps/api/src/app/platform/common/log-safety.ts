/**
 * What may reach a log line (OWASP ASVS 4.0.3 V7.1.1 / V7.1.2: no credentials, session tokens or
 * personal data in logs): pino's redaction paths, an error serializer that keeps only an error's
 * kind and names (never a query's parameters, a constraint's failing row, a request body), and
 * request URLs without free-text search terms.
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
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.refreshToken',
  '*.accessToken',
];

/** Query parameters whose values are free text a user typed (a member's name or email) and never logged. */
const FREE_TEXT_PARAMS = ['search'];

/**
 * `url` with the values of free-text query parameters replaced: `/api/members?search=ann%40x.com&page=2`
 * → `/api/members?search=[redacted]&page=2`. Other URLs come back unchanged.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const name of FREE_TEXT_PARAMS) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed
    ? `${url.slice(0, query)}?${params.toString().replace(/%5Bredacted%5D/g, '[redacted]')}`
    : url;
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
