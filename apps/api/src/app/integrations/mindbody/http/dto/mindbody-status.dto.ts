import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { MindbodyStage, MindbodyStatus } from '@grove/contracts';

/** The saved referral discounts of a Mindbody business, integer cents. */
@ApiSchema({ name: 'MindbodyStatusDiscounts' })
export class MindbodyStatusDiscountsDto {
  @ApiProperty({ type: 'integer', description: "Off a member's bill per referred friend, cents" })
  discountOnReferralCents!: number;

  @ApiProperty({ type: 'integer', description: "Off the referred friend's bill, cents" })
  discountForRefereeCents!: number;
}

/** Progress of the running or last import or sync (clients processed / total). */
@ApiSchema({ name: 'MindbodyProgress' })
export class MindbodyProgressDto {
  @ApiProperty({ type: 'integer' })
  done!: number;

  @ApiProperty({ type: 'integer' })
  total!: number;
}

/** Mindbody calls of the last import or sync and of this calendar month (issue 22). */
@ApiSchema({ name: 'MindbodyCalls' })
export class MindbodyCallsDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null before the first run' })
  lastRun!: number | null;

  @ApiProperty({ type: 'integer' })
  thisMonth!: number;
}

/** Mindbody's webhook subscription delivers nothing and could not be activated again. */
@ApiSchema({ name: 'MindbodyWebhooksDown' })
export class MindbodyWebhooksDownDto {
  @ApiProperty({ description: 'ISO date-time' })
  since!: string;

  @ApiProperty({ example: 'DeactivatedTooManyFailedMessageDeliveryAttempts' })
  status!: string;
}

/**
 * Bill changes a sync Mindbody's webhooks started holds for the owner (issue 31): nothing reaches
 * Mindbody until the owner reviews them (`GET /api/mindbody/sync/preview`) and confirms.
 */
@ApiSchema({ name: 'MindbodyPendingBills' })
export class MindbodyPendingBillsDto {
  @ApiProperty({ type: 'integer', description: 'Members whose Mindbody bill would change' })
  count!: number;

  @ApiProperty({ description: 'ISO date-time: since when changes have been waiting' })
  since!: string;
}

/** What 'Remove integration' did to the Mindbody autopays Grove had overridden (issue 22). */
@ApiSchema({ name: 'MindbodyRemoval' })
export class MindbodyRemovalDto {
  @ApiProperty({ type: 'integer' })
  autopaysRestored!: number;

  @ApiProperty({
    type: [String],
    description: 'Names of the members whose autopay was not put back',
  })
  autopaysNotRestored!: string[];
}

/**
 * What the Mindbody setup wizard shows (docs/product.md#mindbody-stages); every `/api/mindbody`
 * reply but the previews and the activation check. Never includes credentials.
 */
@ApiSchema({ name: 'MindbodyStatus' })
export class MindbodyStatusDto implements MindbodyStatus {
  @ApiProperty({
    type: 'integer',
    enum: [1, 2, 3, 4],
    description: '1 enter credentials, 2 validated, 3 members imported, 4 fully configured',
  })
  stage!: MindbodyStage;

  @ApiProperty({ type: String, nullable: true })
  siteId!: string | null;

  @ApiProperty({
    type: MindbodyStatusDiscountsDto,
    nullable: true,
    description: 'Null until saved (and after Remove integration)',
  })
  discounts!: MindbodyStatusDiscountsDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Null when idle, 'running', 'completed <ISO time>' or 'failed <ISO time>'",
  })
  processState!: string | null;

  @ApiProperty({ type: MindbodyProgressDto, nullable: true })
  progress!: MindbodyProgressDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'ISO date-time of the last sync; null before the first',
  })
  lastSyncAt!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Clients of the last run stored without an email; null before the first run',
  })
  invalidEmails!: number | null;

  @ApiPropertyOptional({ type: MindbodyCallsDto, description: 'Absent before the first job' })
  mindbodyCalls?: MindbodyCallsDto;

  @ApiPropertyOptional({ type: MindbodyWebhooksDownDto, description: 'Only at stage 4' })
  webhooksDown?: MindbodyWebhooksDownDto;

  @ApiPropertyOptional({
    type: MindbodyRemovalDto,
    description: 'Only in the reply of `DELETE /api/mindbody`',
  })
  removal?: MindbodyRemovalDto;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Members whose Mindbody bills the last sync wrote (present once one did)',
  })
  lastSyncBillsWritten?: number;

  @ApiPropertyOptional({
    type: MindbodyPendingBillsDto,
    description:
      'Only at stage 4, while bill changes a webhook’s sync found wait for the owner’s confirmation',
  })
  pendingBills?: MindbodyPendingBillsDto;
}
