import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { MindbodySiteActivation } from '@grove/contracts';

/**
 * `GET /api/mindbody/activation?siteId=` (issue 22): whether the site has activated Grove's
 * developer account, else the code and link its owner opens.
 */
@ApiSchema({ name: 'MindbodySiteActivation' })
export class MindbodySiteActivationDto implements MindbodySiteActivation {
  @ApiProperty({ example: '-99' })
  siteId!: string;

  @ApiProperty()
  activated!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Null once activated' })
  activationCode!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The site's Manage Credentials link; null once activated",
  })
  activationLink!: string | null;
}
