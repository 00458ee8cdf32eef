import { Module } from '@nestjs/common';
import { ErasedEmails } from './erased-emails';
import { ErasureController } from './erasure.controller';
import { ErasureRepository } from './erasure.repository';
import { ErasureService } from './erasure.service';

/**
 * Erasing a member's personal data on request (issue 34 item 6, docs/product.md#data-rights),
 * and `ErasedEmails`, which the add-member form and the CSV import ask before adding an address.
 */
@Module({
  controllers: [ErasureController],
  providers: [ErasureService, ErasureRepository, ErasedEmails],
  exports: [ErasedEmails],
})
export class ErasureModule {}
