import { Module } from '@nestjs/common';
import { MemberEmailsModule } from '../member-emails/member-emails.module';
import { ReferralNudgesController } from './referral-nudges.controller';
import { ReferralNudgesRepository } from './referral-nudges.repository';
import { ReferralNudgesService } from './referral-nudges.service';
import { VisitSources } from './visit-source';

/**
 * Asked at the right moment (issue 33 item 5): the owner's nudge settings and previews, and the
 * scheduled run that sends the invitation, the reminder and the monthly summary.
 */
@Module({
  imports: [MemberEmailsModule],
  controllers: [ReferralNudgesController],
  providers: [ReferralNudgesService, ReferralNudgesRepository, VisitSources],
  // VisitSources: the billing/CRM that tells visits (Mindbody) registers itself there.
  exports: [ReferralNudgesService, VisitSources],
})
export class ReferralNudgesModule {}
