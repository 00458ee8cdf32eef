import { Module } from '@nestjs/common';
import { MindbodyApiGateway } from './mindbody-api.gateway';
import { MindbodyCrypto } from './mindbody-crypto';
import { MindbodyGateway } from './mindbody-gateway';
import { MindbodyMembersRepository } from './mindbody-members.repository';
import { MindbodyProcessor } from './mindbody-processor';
import { MindbodyController } from './mindbody.controller';
import { MindbodyRepository } from './mindbody.repository';
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
