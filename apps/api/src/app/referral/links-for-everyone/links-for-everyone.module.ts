import { Module } from '@nestjs/common';
import { LifecycleModule } from '../../membership/lifecycle/lifecycle.module';
import { LinksForEveryoneController } from './links-for-everyone.controller';
import { LinksForEveryoneRepository } from './links-for-everyone.repository';
import { LinksForEveryoneService } from './links-for-everyone.service';

/**
 * Links for everyone (issue 14 part 4): 'Create links for all members without one' and automatic
 * links for new members, which it gives by listening to membership's 'members.added' and
 * 'members.bulk-added' (no module outside referral/ imports it).
 */
@Module({
  imports: [LifecycleModule],
  controllers: [LinksForEveryoneController],
  providers: [LinksForEveryoneService, LinksForEveryoneRepository],
  exports: [LinksForEveryoneService],
})
export class LinksForEveryoneModule {}
