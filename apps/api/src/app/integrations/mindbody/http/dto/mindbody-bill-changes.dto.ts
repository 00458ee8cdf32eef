import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { MindbodyBillChange, MindbodyBillChanges } from '@grove/contracts';
import { PageDto } from '../../../../platform/common/dto/page.dto';

/** One member's Mindbody bill a sync would change or 'Remove integration' would put back. Cents. */
@ApiSchema({ name: 'MindbodyBillChange' })
export class MindbodyBillChangeDto implements MindbodyBillChange {
  @ApiProperty({ format: 'uuid' })
  memberId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'integer', description: 'What Mindbody bills now, cents' })
  currentCents!: number;

  @ApiProperty({ type: 'integer', description: 'What it would bill afterwards, cents' })
  newCents!: number;

  @ApiProperty({ type: 'integer', description: '`newCents − currentCents`, cents' })
  differenceCents!: number;
}

/**
 * `GET /api/mindbody/sync/preview` and `GET /api/mindbody/removal/preview` (issue 25): one page of
 * the Mindbody bills that would change, by name, with the count and monthly difference of all.
 */
@ApiSchema({ name: 'MindbodyBillChanges' })
export class MindbodyBillChangesDto extends PageDto implements MindbodyBillChanges {
  @ApiProperty({ type: [MindbodyBillChangeDto] })
  items!: MindbodyBillChangeDto[];

  @ApiProperty({
    type: 'integer',
    description: "Sum of every change's `differenceCents` (all pages), cents a month",
  })
  monthlyDifferenceCents!: number;

  @ApiProperty({
    description: 'Names this set of changes: `POST /api/mindbody/sync` carries it as `confirm`',
    example: '3f1c0e9a4b2d8c7e6f5a4b3c2d1e0f9a',
  })
  fingerprint!: string;

  @ApiProperty({
    type: 'integer',
    description: 'Sync only: running members whose contract Grove has not read yet (0 for removal)',
  })
  unreadContracts!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Sync only: approved friends waiting for their Mindbody client (0 for removal)',
  })
  waitingFriends!: number;
}
