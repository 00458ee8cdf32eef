import { Injectable } from '@nestjs/common';

/**
 * Whether this API process is draining: it received SIGTERM and waits `SHUTDOWN_DRAIN_MS` before
 * it closes its listener, so the proxy in front sees its liveness check fail and stops sending it
 * requests first. Set by `GracefulShutdown`, read by `GET /api/health/live`.
 */
@Injectable()
export class DrainState {
  private drainingSince: number | null = null;

  /** Marks the process as draining (idempotent). */
  start(): void {
    this.drainingSince ??= Date.now();
  }

  /** True from `start()` until the process exits. */
  get draining(): boolean {
    return this.drainingSince !== null;
  }
}
