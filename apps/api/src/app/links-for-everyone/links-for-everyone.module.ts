import { Module } from '@nestjs/common';
import { LifecycleModule } from '../lifecycle/lifecycle.module';
import { LinksForEveryoneController } from './links-for-everyone.controller';
import { LinksForEveryoneRepository } from './links-for-everyone.repository';
import { LinksForEveryoneService } from './links-for-everyone.service';

/**
 * Links for everyone (issue 14 part 4): 'Create links for all members without one' and automatic
 * links for new members. Imported by the modules whose flows add members (members, Mindbody; the
 * CSV import calls `LinksForEveryoneService.linkNewMembers`). It depends on no feature module.
 */
@Module({
  imports: [LifecycleModule],
  controllers: [LinksForEveryoneController],
  providers: [LinksForEveryoneService, LinksForEveryoneRepository],
  exports: [LinksForEveryoneService],
})
export class LinksForEveryoneModule {}
