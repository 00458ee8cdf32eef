import { Module } from '@nestjs/common';
import { MindbodyApiGateway } from './client/mindbody-site-client';
import { MindbodyCrypto } from './persistence/mindbody-crypto';
import { MindbodyGateway } from './client/mindbody-records';
import { MindbodyMembersRepository } from './persistence/mindbody-members.repository';
import { MindbodyProcessor } from './jobs/mindbody-processor';
import { MindbodyController } from './http/mindbody.controller';
import { MindbodyRepository } from './persistence/mindbody.repository';
import { MindbodyService } from './mindbody.service';

/** Mindbody integration (SPEC §2, §4; DESIGN §6): setup wizard endpoints, import/sync jobs, webhooks. */
@Module({
  controllers: [MindbodyController],
  providers: [
    MindbodyService,
    MindbodyRepository,
    MindbodyMembersRepository,
    MindbodyProcessor,
    MindbodyCrypto,
    { provide: MindbodyGateway, useClass: MindbodyApiGateway },
  ],
  exports: [MindbodyProcessor],
})
export class MindbodyModule {}
