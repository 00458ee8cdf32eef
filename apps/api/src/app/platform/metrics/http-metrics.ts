import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { MetricsService } from './metrics.service';

/** The route label of a request no API route matched that the web apps' handler answered (pages, built files). */
export const WEB_APPS_ROUTE = 'web-apps';

/** The route label of an API request (or any other) no route matched: one label for them all. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Methods labelled as they are; anything else is `OTHER` (a label value per odd verb would be unbounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Seconds: from 5 ms (a cached read) to 10 s (DATABASE_STATEMENT_TIMEOUT_MS's default), the
 * slow end being what an operator alerts on.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The route label of a finished request: the pattern of the route Express matched, prefix
 * included (`/api/members/:id`, `/referral/:code`), never the raw path, so a member id or a
 * referral code never becomes a label value. Without a matched controller route: `web-apps` for what the
 * web apps' handler serves (every path outside `/api/` and `/remotes.json`), else `unmatched`.
 */
export function routeLabel(request: Request): string {
  const pattern: unknown = (request.route as { path?: unknown } | undefined)?.path;
  // A wildcard is the request logger's own catch-all (`{*splat}`, platform.module.ts), the last
  // route Express matched when no controller's did; Grove has no wildcard route of its own.
  if (typeof pattern === 'string' && !pattern.includes('*')) return `${request.baseUrl}${pattern}`;
  const path = request.path;
  const api = path === '/api' || path.startsWith('/api/') || path === '/remotes.json';
  return api ? UNMATCHED_ROUTE : WEB_APPS_ROUTE;
}

/**
 * Express middleware measuring every request of the public port (docs/architecture.md#metrics):
 * `grove_http_requests_total{method,route,status}` (rate, and error counts by status: 4xx, 5xx)
 * and `grove_http_request_duration_seconds{method,route}` (latency histogram), both taken when the
 * reply has been sent (or the client went away: status as set then). Install it first, before any
 * handler that may answer.
 */
export function httpMetrics(metrics: MetricsService): RequestHandler {
  const requests = metrics.counter({
    name: 'grove_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'],
  });
  const duration = metrics.histogram({
    name: 'grove_http_request_duration_seconds',
    help: 'Time from a request arriving to its reply being sent, in seconds, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
  });
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const method = METHODS.has(request.method) ? request.method : 'OTHER';
      const route = routeLabel(request);
      requests.inc({ method, route, status: String(response.statusCode) });
      duration.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    response.once('finish', record);
    response.once('close', record);
    next();
  };
}
