import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow, IsIn } from 'class-validator';
import {
  NUDGE_INVITE_DAYS,
  NUDGE_REMINDER_DAYS,
  REFERRAL_NUDGE_KINDS,
  REFERRAL_NUDGE_MESSAGES,
  validateReferralNudgeSettings,
  type ReferralNudgeKind,
  type ReferralNudgePreview,
  type ReferralNudgeSettings,
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

/** Query of `GET /api/settings/referral-nudges/preview`. */
export class ReferralNudgePreviewQueryDto {
  @ApiProperty({ enum: REFERRAL_NUDGE_KINDS, description: 'Which email to preview' })
  @IsIn(REFERRAL_NUDGE_KINDS, { message: REFERRAL_NUDGE_MESSAGES.kind })
  kind!: ReferralNudgeKind;
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
