import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ReferralLinkRun, ReferralLinkRunStatus } from '@grove/contracts';

/** Every `ReferralLinkRunStatus`. */
const RUN_STATUSES = [
  'idle',
  'running',
  'done',
  'failed',
] as const satisfies readonly ReferralLinkRunStatus[];

/**
 * `GET/POST /api/referral-links/all`: the latest 'Create links for all members without one' run
 * of the business ('idle' when none) and how many members have no live link now.
 */
@ApiSchema({ name: 'ReferralLinkRun' })
export class ReferralLinkRunDto implements ReferralLinkRun {
  @ApiProperty({ enum: RUN_STATUSES, enumName: 'ReferralLinkRunStatus' })
  status!: ReferralLinkRunStatus;

  @ApiProperty({ type: Number, description: 'Members without a live link when the run started' })
  total!: number;

  @ApiProperty({
    type: Number,
    description: 'Members the run has looked at so far (progress = processed / total)',
  })
  processed!: number;

  @ApiProperty({ type: Number, description: 'Links the run created' })
  created!: number;

  @ApiProperty({ type: Number, description: 'Members of the business without a live link now' })
  withoutLink!: number;
}
