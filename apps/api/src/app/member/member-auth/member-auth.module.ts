import { Module } from '@nestjs/common';
import { MemberAuthService } from './member-auth.service';
import { MemberSessionGuard } from './member-session.guard';
import { MemberTokensRepository } from './member-tokens.repository';

/** Member page sign-in: magic links, member sessions and their guard (issue 15). */
@Module({
  providers: [MemberAuthService, MemberTokensRepository, MemberSessionGuard],
  exports: [MemberAuthService, MemberTokensRepository, MemberSessionGuard],
})
export class MemberAuthModule {}
