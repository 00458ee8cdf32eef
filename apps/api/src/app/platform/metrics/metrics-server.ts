import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { safeErrorText } from '../common/log-safety';
import { MetricsService } from './metrics.service';

/** SHA-256 of a text: equal-length buffers for a constant-time comparison of tokens of any length. */
const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The metrics listener (docs/architecture.md#metrics): `GET /metrics` (Prometheus text format,
 * `MetricsService.scrape`) on METRICS_PORT, a plain Node HTTP server of its own, so the public
 * port (and HAProxy, which forwards only that one) never serves it; the public port answers
 * `/metrics` 404 like any unknown path. With METRICS_TOKEN set, a scrape needs
 * `Authorization: Bearer <token>` (else 401 with `WWW-Authenticate: Bearer`). Anything but
 * `GET|HEAD /metrics` is 404 (405 for another method on it).
 *
 * Started by `main.ts` after the public port ({@link listen}); closed when the application shuts
 * down. Integration tests start it on METRICS_PORT=0 (any free port) and read {@link port}.
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Listens on METRICS_PORT (all interfaces, like the public port).
   * @returns the port it listens on (the OS's choice for METRICS_PORT=0)
   * @throws Error when the port cannot be listened on (e.g. EADDRINUSE): the API does not start
   */
  async listen(): Promise<number> {
    if (this.server) return this.port;
    const server = createServer((request, response) => {
      this.answer(request, response).catch((error: unknown) => {
        this.logger.error(`metrics scrape failed: ${safeErrorText(error)}`);
        if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
        response.end('metrics unavailable\n');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return this.port;
  }

  /** The port listened on; 0 before {@link listen}. */
  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') return plain(response, 404, 'Not Found');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return plain(response, 405, 'Method Not Allowed');
    }
    if (!this.authorized(request.headers.authorization)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="grove-metrics"');
      return plain(response, 401, 'Unauthorized');
    }
    const { contentType, body } = await this.metrics.scrape();
    response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** True when no METRICS_TOKEN is set, or the header is `Bearer <METRICS_TOKEN>` (compared in constant time). */
  private authorized(header: string | undefined): boolean {
    const token = this.config.metricsToken;
    if (!token) return true;
    const match = /^Bearer +(\S+)\s*$/i.exec(header ?? '');
    return match !== null && timingSafeEqual(digest(match[1]), digest(token));
  }
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(`${text}\n`);
}
