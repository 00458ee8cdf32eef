import { Module } from '@nestjs/common';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';

/** Trees and branches (SPEC §2–§4): list, read, add, add branch, detach branch, change, remove. */
@Module({
  controllers: [MembersController],
  providers: [MembersService, MembersRepository],
  exports: [MembersRepository, MembersService],
})
export class MembersModule {}
