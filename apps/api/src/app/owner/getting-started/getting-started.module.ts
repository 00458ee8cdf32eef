import { Module } from '@nestjs/common';
import { GettingStartedController } from './getting-started.controller';
import { GettingStartedRepository } from './getting-started.repository';

/** The 'Getting started' checklist on Branches (docs/product.md#getting-started): its facts and its dismissal. */
@Module({
  controllers: [GettingStartedController],
  providers: [GettingStartedRepository],
})
export class GettingStartedModule {}
