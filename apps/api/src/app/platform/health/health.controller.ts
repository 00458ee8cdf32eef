import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public } from '../common/public.decorator';

/** Liveness and readiness for load balancers and `npm start`. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  /** → 200 `{ status: 'ok', info: { database: { status: 'up' } } }`; 503 when the database is down. */
  @Public()
  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 3000 })]);
  }

  /**
   * Liveness: → 200 `{ status: 'ok' }` while this process accepts requests, whatever the database
   * does. The proxy checks replicas here (deploy/haproxy/haproxy.cfg), so a database outage reaches
   * clients as the API's 503 with `Retry-After` instead of every replica being marked down.
   */
  @Public()
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
