import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  NUDGE_INVITE_DAYS,
  NUDGE_INVITE_VISITS,
  NUDGE_REMINDER_DAYS,
  REFERRAL_NUDGE_KINDS,
  REFERRAL_NUDGE_MESSAGES,
  validateReferralNudgeSettings,
  type ReferralNudgeKind,
  type ReferralNudgePreview,
  type ReferralNudgeSettings,
  type ReferralNudgeSettingsReply,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';

/**
 * `PUT /api/settings/referral-nudges` body, and the reply of `GET` and `PUT`
 * (docs/product.md#referral-nudges): days (whole days) or null for off. Checked by contracts'
 * `validateReferralNudgeSettings`: else 400 with its messages, nothing saved.
 */
@ApiSchema({ name: 'ReferralNudgeSettings' })
@ValidatedBy(validateReferralNudgeSettings)
export class ReferralNudgeSettingsDto implements ReferralNudgeSettings {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: NUDGE_INVITE_DAYS.min,
    maximum: NUDGE_INVITE_DAYS.max,
    description: 'Invite a member to refer this many days after they joined; null: off',
  })
  @Allow()
  inviteAfterDays!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    required: false,
    minimum: NUDGE_INVITE_VISITS.min,
    maximum: NUDGE_INVITE_VISITS.max,
    description:
      'Or invite a Mindbody member after their Nth visit (visits read from Mindbody); null or absent: off. Never together with inviteAfterDays; refused (400) where Mindbody is not connected with members imported',
  })
  @Allow()
  inviteAfterVisits?: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: NUDGE_REMINDER_DAYS.min,
    maximum: NUDGE_REMINDER_DAYS.max,
    description:
      'Remind once, this many days after the invitation, a member who has not opened their link since; null: off (needs the invitation)',
  })
  @Allow()
  reminderAfterDays!: number | null;

  @ApiProperty({ description: 'A monthly summary to every referrer with a counting branch' })
  @Allow()
  monthlySummary!: boolean;
}

/** Reply of `GET` and `PUT /api/settings/referral-nudges`: the settings and what can be chosen. */
@ApiSchema({ name: 'ReferralNudgeSettingsReply' })
export class ReferralNudgeSettingsReplyDto
  extends ReferralNudgeSettingsDto
  implements ReferralNudgeSettingsReply
{
  @ApiProperty({
    description:
      'True when Mindbody is connected and its members imported: only then can the invitation follow the Nth visit',
  })
  visitsAvailable!: boolean;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Members whose visits Grove checks once a week each (one Mindbody GetClientVisits call per member a week while the invitation after visits is on); 0 where visits are not told',
  })
  visitChecksPerWeek!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      "The business's Mindbody members (membership not ended there); 0 where visits are not told",
  })
  mindbodyMembers!: number;
}

/** Query-string digits (at most 3) → number; anything else stays as sent and fails `@IsInt`. */
const digitsOnly = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;

/** Query of `GET /api/settings/referral-nudges/preview`. */
export class ReferralNudgePreviewQueryDto {
  @ApiProperty({ enum: REFERRAL_NUDGE_KINDS, description: 'Which email to preview' })
  @IsIn(REFERRAL_NUDGE_KINDS, { message: REFERRAL_NUDGE_MESSAGES.kind })
  kind!: ReferralNudgeKind;

  @ApiProperty({
    type: 'integer',
    required: false,
    minimum: NUDGE_INVITE_VISITS.min,
    maximum: NUDGE_INVITE_VISITS.max,
    description:
      'With kind=invite: the invitation after this visit (a Mindbody member), not after days',
  })
  @IsOptional()
  @Transform(digitsOnly)
  @IsInt({ message: REFERRAL_NUDGE_MESSAGES.inviteVisits })
  @Min(NUDGE_INVITE_VISITS.min, { message: REFERRAL_NUDGE_MESSAGES.inviteVisits })
  @Max(NUDGE_INVITE_VISITS.max, { message: REFERRAL_NUDGE_MESSAGES.inviteVisits })
  visits?: number;
}

/** One nudge as a real member of the business would get it; nothing sent. */
@ApiSchema({ name: 'ReferralNudgePreview' })
export class ReferralNudgePreviewDto implements ReferralNudgePreview {
  @ApiProperty({ enum: REFERRAL_NUDGE_KINDS })
  kind!: ReferralNudgeKind;

  @ApiProperty({ description: 'The member it is rendered for' })
  memberName!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty({ description: 'The HTML part, a whole document' })
  html!: string;

  @ApiProperty({ description: 'The plain-text part' })
  text!: string;
}
