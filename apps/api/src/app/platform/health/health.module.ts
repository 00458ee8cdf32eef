import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DrainState } from './drain-state';
import { HealthController } from './health.controller';

/** `GET /api/health` and `GET /api/health/live` (public); `DrainState` for the shutdown. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [DrainState],
  exports: [DrainState],
})
export class HealthModule {}
