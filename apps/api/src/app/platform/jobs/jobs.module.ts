import { Global, Module } from '@nestjs/common';
import { JobsService } from './jobs.service';
import { RetentionSweep } from './retention';
import { RetentionRepository } from '../database/retention.repository';

/**
 * pg-boss on the API's own PostgreSQL; global so any feature module can queue work. Also the
 * daily retention sweep (`RetentionSweep`).
 */
@Global()
@Module({
  providers: [JobsService, RetentionSweep, RetentionRepository],
  exports: [JobsService, RetentionSweep],
})
export class JobsModule {}
