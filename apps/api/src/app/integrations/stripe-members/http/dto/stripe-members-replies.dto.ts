import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PageDto } from '../../../../platform/common/dto/page.dto';

/**
 * The business's latest Stripe import or sync, a background job (issue 32): what the wizard polls
 * while it runs, and its counts or failure afterwards.
 */
@ApiSchema({ name: 'StripeMembersRun' })
export class StripeMembersRunDto {
  @ApiProperty({ enum: ['import', 'sync'] })
  kind!: 'import' | 'sync';

  @ApiProperty({ enum: ['running', 'done', 'failed'] })
  state!: 'running' | 'done' | 'failed';

  @ApiProperty({
    type: 'integer',
    description: 'Subscriptions listed so far (import), bills written so far (sync)',
  })
  done!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "Bills to write (sync); null while unknown (an import: Stripe's listing has no count)",
  })
  total!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Import done: active subscriptions Stripe listed',
  })
  listed!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Import done: members added or whose price changed',
  })
  membersWritten!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Import done: imported subscriptions no longer active',
  })
  ended!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Sync done: bills written' })
  billsWritten!: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed (state failed)' })
  error!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  startedAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt!: string | null;
}

/** `GET /api/stripe-members` and the wizard's other replies: the connection and its last runs. Cents. */
@ApiSchema({ name: 'StripeMembersStatus' })
export class StripeMembersStatusDto {
  @ApiProperty({ description: 'A restricted key is stored (sealed)' })
  connected!: boolean;

  @ApiProperty({ type: String, nullable: true, description: "The key's last 4 characters" })
  keyLast4!: string | null;

  @ApiProperty({ description: 'A live-mode key (`rk_live_`); false for test mode or none' })
  livemode!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Null until saved, cents' })
  discountOnReferralCents!: number | null;

  @ApiProperty({ type: 'integer', description: 'Cents' })
  discountForRefereeCents!: number;

  @ApiProperty({ type: 'integer', description: 'Imported subscriptions still active' })
  subscriptions!: number;

  @ApiProperty({ type: 'integer', description: "Subscriptions carrying Grove's discount" })
  discountedSubscriptions!: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  importedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastSyncAt!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Bills the last sync wrote' })
  lastSyncBillsWritten!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The URL of the webhook endpoint the owner adds in their Stripe Dashboard (events invoice.paid and customer.subscription.deleted); null before connecting',
  })
  webhookUrl!: string | null;

  @ApiProperty({ description: "The endpoint's signing secret is stored (sealed)" })
  webhookConfigured!: boolean;

  @ApiProperty({
    description:
      'The owner, confirming the last sync, let Grove write the bills webhooks change under the same discounts',
  })
  automaticSync!: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "Since when a webhook's bill changes wait for the owner's review (null: none)",
  })
  pendingBillsSince!: string | null;

  @ApiProperty({
    type: StripeMembersRunDto,
    nullable: true,
    description: 'The latest import or sync (null before the first, and when not connected)',
  })
  run!: StripeMembersRunDto | null;
}

/** One member's Stripe bill a sync would change. Cents a billing period, in `currency`. */
@ApiSchema({ name: 'StripeBillChange' })
export class StripeBillChangeDto {
  @ApiProperty({ format: 'uuid' })
  memberId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ example: 'aud', description: "The subscription's currency (lower-case ISO 4217)" })
  currency!: string;

  @ApiProperty({ type: 'integer', description: "What Stripe bills now after Grove's discount" })
  currentCents!: number;

  @ApiProperty({ type: 'integer', description: 'What it would bill afterwards' })
  newCents!: number;

  @ApiProperty({ type: 'integer', description: '`newCents − currentCents`' })
  differenceCents!: number;
}

/** `GET /api/stripe-members/sync/preview`: one page of the bills a sync would change, by name. */
@ApiSchema({ name: 'StripeBillChanges' })
export class StripeBillChangesDto extends PageDto {
  @ApiProperty({ type: [StripeBillChangeDto] })
  items!: StripeBillChangeDto[];

  @ApiProperty({ type: 'integer', description: "Sum of every change's difference (all pages)" })
  monthlyDifferenceCents!: number;

  @ApiProperty({ description: '`POST /api/stripe-members/sync` carries it as `confirm`' })
  fingerprint!: string;
}

/** `DELETE /api/stripe-members`: the discounts Grove took off the gym's subscriptions. */
@ApiSchema({ name: 'StripeMembersRemoval' })
export class StripeMembersRemovalDto {
  @ApiProperty({ type: 'integer' })
  discountsRemoved!: number;

  @ApiProperty({ type: StripeMembersStatusDto })
  status!: StripeMembersStatusDto;
}

/** `GET /api/stripe-members/members/{id}/next-charge`: "Stripe will charge $X on <date>". */
@ApiSchema({ name: 'StripeNextCharge' })
export class StripeNextChargeDto {
  @ApiProperty({ type: 'integer', description: "The upcoming invoice's amount due, cents" })
  amountCents!: number;

  @ApiProperty({ example: 'aud', description: 'Lower-case ISO 4217' })
  currency!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When Stripe will charge it' })
  at!: string;
}

/** `POST /api/stripe-members/webhooks/{token}`: what Stripe is answered (any 2xx means received). */
@ApiSchema({ name: 'StripeMembersWebhookReceipt' })
export class StripeMembersWebhookReceiptDto {
  @ApiProperty({ example: true })
  received!: boolean;
}
