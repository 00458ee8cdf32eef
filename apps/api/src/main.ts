import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app/app.module';
import { AppConfig } from './app/app-config';
import { setupApp } from './app/setup-app';
import { MetricsServer } from './app/platform/metrics/metrics-server';
import { survivingStrayDatabaseFaults } from './app/platform/database/stray-database-faults';

/**
 * Starts the Grove API (and the static front ends) on PORT and the Prometheus metrics on
 * METRICS_PORT (never on PORT: docs/architecture.md#metrics); migrations run during start-up.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(), {
    bufferLogs: true,
    rawBody: true,
  });
  app.enableShutdownHooks();
  survivingStrayDatabaseFaults(app.get(Logger));
  setupApp(app);
  const config = app.get(AppConfig);
  await app.listen(config.port);
  app.get(Logger).log(`Grove is listening on http://localhost:${config.port}`, 'Bootstrap');
  const metricsPort = await app.get(MetricsServer).listen();
  app.get(Logger).log(`Metrics on http://localhost:${metricsPort}/metrics`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
