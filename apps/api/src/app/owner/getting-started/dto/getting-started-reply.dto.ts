import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { GettingStarted } from '@grove/contracts';

/** Which of the checklist's first steps are done, each computed from data (docs/product.md#getting-started). */
@ApiSchema({ name: 'GettingStartedSteps' })
export class GettingStartedStepsDto {
  @ApiProperty({ description: 'A default discount per referral is saved' })
  discount!: boolean;

  @ApiProperty({ description: 'The business has at least one member' })
  members!: boolean;

  @ApiProperty({
    description:
      "The members' billing is connected: Mindbody (stage 2 or above) or Stripe member billing (a key saved)",
  })
  billing!: boolean;

  @ApiProperty({ description: 'At least one member has a live referral link' })
  links!: boolean;
}

/** `GET/PUT /api/getting-started`: the checklist's steps and whether the owner hid it. */
@ApiSchema({ name: 'GettingStarted' })
export class GettingStartedReplyDto implements GettingStarted {
  @ApiProperty({ type: GettingStartedStepsDto })
  steps!: GettingStartedStepsDto;

  @ApiProperty()
  dismissed!: boolean;
}
