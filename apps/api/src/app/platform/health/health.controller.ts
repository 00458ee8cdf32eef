import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
} from '@nestjs/terminus';
import { Public } from '../common/public.decorator';
import { DrainState } from './drain-state';
import { LivenessDto } from './dto/health.dto';

/** Liveness and readiness for load balancers and `npm start`. */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly drain: DrainState,
  ) {}

  /** → 200 `{ status: 'ok', info: { database: { status: 'up' } } }`; 503 when the database is down. */
  @Public()
  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 3000 })]);
  }

  /**
   * Liveness: → 200 `{ status: 'ok' }` while this process takes new requests, whatever the
   * database does; 503 `{ message: 'Shutting down' }` once it drains (SIGTERM, `DrainState`). The
   * proxy checks replicas here (deploy/haproxy/haproxy.cfg): a database outage reaches clients as
   * the API's own 503 with `Retry-After` instead of every replica being marked down, and a replica
   * that stops is taken out of rotation before it closes its listener.
   */
  @Public()
  @Get('live')
  @ApiOkResponse({ type: LivenessDto })
  live(): LivenessDto {
    if (this.drain.draining) throw new ServiceUnavailableException('Shutting down');
    return { status: 'ok' };
  }
}
