import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';
import { PlatformMetrics } from './platform-metrics';

/**
 * Prometheus metrics (docs/architecture.md#metrics): `MetricsService` (every area registers its
 * metrics there; global), platform's scrape-time gauges and the listener on METRICS_PORT.
 */
@Global()
@Module({
  providers: [MetricsService, PlatformMetrics, MetricsServer],
  exports: [MetricsService, MetricsServer],
})
export class MetricsModule {}
