import { Global, Module } from '@nestjs/common';
import { JobsService } from './jobs.service';

/** pg-boss on the API's own PostgreSQL; global so any feature module can queue work. */
@Global()
@Module({ providers: [JobsService], exports: [JobsService] })
export class JobsModule {}
