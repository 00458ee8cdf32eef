import { IsOptional, IsString, MinLength } from 'class-validator';
import { EnvInt } from '../common/config/env-section';

/**
 * Where the Prometheus metrics are served (docs/architecture.md#metrics): never on the public
 * port, only on a listener of their own.
 */
export class MetricsEnv {
  /**
   * Port of the metrics listener (`GET /metrics`, Prometheus text format), separate from PORT so
   * the public origin (HAProxy forwards PORT only) never serves it. `0`: any free port (tests).
   */
  @EnvInt(0, 65535)
  METRICS_PORT = 9464;

  /**
   * When set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` (else 401). At least
   * 16 characters. Unset: the port alone keeps the metrics private.
   */
  @IsString()
  @MinLength(16)
  @IsOptional()
  METRICS_TOKEN?: string;
}

/** The metrics settings of `AppConfig` from the validated variables. */
export function readMetricsConfig(vars: MetricsEnv): {
  /** Port of the metrics listener (METRICS_PORT; 0 = any free port). */
  metricsPort: number;
  /** Bearer token `GET /metrics` needs (METRICS_TOKEN), null when none is. */
  metricsToken: string | null;
} {
  return { metricsPort: vars.METRICS_PORT, metricsToken: vars.METRICS_TOKEN ?? null };
}
