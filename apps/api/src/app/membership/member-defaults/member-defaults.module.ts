import { Module } from '@nestjs/common';
import { MemberDefaultsController } from './member-defaults.controller';
import { MemberDefaultsRepository } from './member-defaults.repository';

/**
 * The business's defaults for new members (docs/product.md#member-defaults): its route, and the
 * repository the CSV import and prospect approval read them through.
 */
@Module({
  controllers: [MemberDefaultsController],
  providers: [MemberDefaultsRepository],
  exports: [MemberDefaultsRepository],
})
export class MemberDefaultsModule {}
