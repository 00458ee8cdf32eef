import { Module } from '@nestjs/common';
import { JiraClient } from './jira.client';
import { SupportController } from './support.controller';
import { SupportRepository } from './support.repository';
import { SupportService } from './support.service';

/** Issue reports from signed-in owners, filed in Jira when configured (docs/product.md#issue-form Issue form). */
@Module({
  controllers: [SupportController],
  providers: [SupportService, SupportRepository, JiraClient],
})
export class SupportModule {}
