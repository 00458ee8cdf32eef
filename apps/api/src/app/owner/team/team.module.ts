import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { MailModule } from '../../platform/mail/mail.module';
import { TeamController } from './team.controller';
import { TeamRepository } from './team.repository';
import { TeamService } from './team.service';

/** Staff accounts (docs/product.md#staff-accounts): the Team card's routes and invitations. */
@Module({
  imports: [AuthModule, MailModule],
  controllers: [TeamController],
  providers: [TeamService, TeamRepository],
})
export class TeamModule {}
