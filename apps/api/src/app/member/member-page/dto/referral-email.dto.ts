import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  ReferralEmailExample,
  ReferralEmailPreview,
  ReferralEmailResult,
  ReferralEmailRun,
} from '@grove/contracts';

/** The latest 'Email all links' run of the business (counts in members). */
@ApiSchema({ name: 'ReferralEmailRun' })
export class ReferralEmailRunDto implements ReferralEmailRun {
  @ApiProperty({ enum: ['idle', 'running', 'done', 'failed'] })
  status!: ReferralEmailRun['status'];

  @ApiProperty({ type: 'integer', description: 'Members with a live link when the run started' })
  total!: number;

  @ApiProperty({ type: 'integer', description: 'Members gone through so far' })
  processed!: number;

  @ApiProperty({ type: 'integer', description: 'Members emailed their link by this run' })
  queued!: number;

  @ApiProperty({ type: 'integer', description: 'Members skipped: emailed within the hour' })
  skipped!: number;
}

/** Who 'Email all links' would email now (members with a live link). */
@ApiSchema({ name: 'ReferralEmailPreview' })
export class ReferralEmailPreviewDto implements ReferralEmailPreview {
  @ApiProperty({ type: 'integer', description: 'Members it would email' })
  members!: number;

  @ApiProperty({ type: 'integer', description: 'Members it would skip (emailed within the hour)' })
  alreadyEmailed!: number;
}

/** One "Your referral link" email as a real member would get it; nothing sent. */
@ApiSchema({ name: 'ReferralEmailExample' })
export class ReferralEmailExampleDto implements ReferralEmailExample {
  @ApiProperty({ format: 'uuid', description: 'The member it is rendered for' })
  memberId!: string;

  @ApiProperty()
  memberName!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty({ description: 'The HTML part, a whole document' })
  html!: string;

  @ApiProperty({ description: 'The plain-text part' })
  text!: string;
}

/** `POST /api/members/:memberId/referral-link/email`: the email queued. */
@ApiSchema({ name: 'ReferralEmailResult' })
export class ReferralEmailResultDto implements ReferralEmailResult {
  @ApiProperty({ type: 'integer', description: 'Emails queued' })
  queued!: number;

  @ApiProperty({ type: 'integer', description: 'Members left out' })
  skipped!: number;
}
