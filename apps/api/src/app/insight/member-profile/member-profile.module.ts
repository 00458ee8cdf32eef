import { Module } from '@nestjs/common';
import { MembersModule } from '../../membership/members/members.module';
import { ReferralsModule } from '../../referral/referrals/referrals.module';
import { MemberProfileController } from './member-profile.controller';
import { MemberProfileRepository } from './member-profile.repository';
import { MemberProfileService } from './member-profile.service';

/** The member profile (issue 14 part 3): `GET /api/members/:id/profile`. */
@Module({
  imports: [MembersModule, ReferralsModule],
  controllers: [MemberProfileController],
  providers: [MemberProfileService, MemberProfileRepository],
})
export class MemberProfileModule {}
