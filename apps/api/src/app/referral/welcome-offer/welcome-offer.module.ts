import { Module } from '@nestjs/common';
import { WelcomeOfferController, WelcomeOfferGrantsController } from './welcome-offer.controller';
import { WelcomeOfferRepository } from './welcome-offer.repository';
import { WelcomeOfferService } from './welcome-offer.service';

/**
 * The friend's welcome offer (issue 33 item 1, docs/product.md#welcome-offer): the setting
 * (`/api/settings/welcome-offer`), its grant at approval (`WelcomeOfferService.grantAtApproval`,
 * called by prospects) and the owner's offers to honour (`/api/welcome-offers`).
 */
@Module({
  controllers: [WelcomeOfferController, WelcomeOfferGrantsController],
  providers: [WelcomeOfferService, WelcomeOfferRepository],
  exports: [WelcomeOfferService, WelcomeOfferRepository],
})
export class WelcomeOfferModule {}
