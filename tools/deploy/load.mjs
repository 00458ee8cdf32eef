// The steady load of the compose drills (autocannon): friends joining through one referral link,
// each with an email of their own, alternating with the owner reading the members page. Every
// reply is recorded, so a drill can say exactly which joins were answered 201 and what every
// failure was.
import autocannon from 'autocannon';

/**
 * Runs the load for `seconds` while `during(elapsedMs)` drives the fault; resolves with what was
 * seen.
 * @param {object} options
 * @param {string} options.origin HAProxy's https origin
 * @param {string} options.code the referral code friends join through
 * @param {string} options.cookie the owner's session (Cookie header) for the members page
 * @param {string} options.tag distinguishes this drill's friends (emails `load-<tag>-<n>@…`)
 * @param {number} options.seconds how long the load runs
 * @param {number} [options.connections] concurrent connections (default 50)
 * @param {(signal: AbortSignal) => Promise<void>} options.during the fault, started with the load
 * @returns {Promise<{ requests: number, joined: string[], failedJoins: Array<{ email: string, status: number }>,
 *   reads: number, failedReads: Array<{ status: number, retryAfter?: string }>, failures: Array<{ kind: string, status: number, retryAfter?: string, message: string, atMs: number }>,
 *   errors: number, timeouts: number, faultError?: Error }>}
 *   `joined`: emails answered 201; `errors`: requests that got no reply at all (socket errors);
 *   a failure's `message` says who answered it (the API or HAProxy), `atMs` when (ms after the start).
 */
export async function runLoad({ origin, code, cookie, tag, seconds, connections = 50, during }) {
  let next = 0;
  const startedAt = Date.now();
  const joined = [];
  const failures = [];
  let reads = 0;
  const instance = autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/api/referrals/${code}/join`,
        headers: { 'content-type': 'application/json', origin },
        setupRequest(request, context) {
          next += 1;
          context.email = `load-${tag}-${next}@example.com`;
          return {
            ...request,
            body: JSON.stringify({ name: 'Load Friend', email: context.email }),
          };
        },
        onResponse(status, body, context, headers) {
          if (status === 201) joined.push(context.email);
          else
            failures.push({
              kind: 'join',
              email: context.email,
              status,
              retryAfter: retryAfter(headers),
              message: messageOf(body),
              atMs: Date.now() - startedAt,
            });
        },
      },
      {
        method: 'GET',
        path: '/api/members?page=1&pageSize=25',
        headers: { cookie, origin },
        onResponse(status, body, _context, headers) {
          if (status === 200) reads += 1;
          else
            failures.push({
              kind: 'read',
              status,
              retryAfter: retryAfter(headers),
              message: messageOf(body),
              atMs: Date.now() - startedAt,
            });
        },
      },
    ],
  });
  const controller = new AbortController();
  let faultError;
  const fault = during(controller.signal).catch((error) => {
    faultError = error;
  });
  const result = await new Promise((resolve) => instance.on('done', resolve));
  controller.abort();
  await fault;
  return {
    requests: result.requests.total,
    joined,
    failedJoins: failures.filter((failure) => failure.kind === 'join'),
    reads,
    failedReads: failures.filter((failure) => failure.kind === 'read'),
    failures,
    errors: result.errors,
    timeouts: result.timeouts,
    faultError,
  };
}

/**
 * The `message` of a JSON error reply (the API's and HAProxy's `http-error` both send one), else
 * the body's first 120 characters: which of them answered a failure.
 */
function messageOf(body) {
  try {
    const message = JSON.parse(body)?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: HAProxy's built-in pages, a proxy error
  }
  return String(body ?? '').slice(0, 120);
}

/** The Retry-After header of a reply (autocannon keeps the header names as the server sent them). */
function retryAfter(headers) {
  const name = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'retry-after');
  return name ? headers[name] : undefined;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
