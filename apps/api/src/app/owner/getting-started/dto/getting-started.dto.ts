import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { GETTING_STARTED_INVALID, type GettingStartedUpdate } from '@grove/contracts';

/** `PUT /api/getting-started` body: `{ dismissed: true|false }` (a JSON boolean). */
export class GettingStartedDto implements GettingStartedUpdate {
  @ApiProperty({
    description: 'true hides the checklist for the whole business; false shows it again',
  })
  @IsBoolean({ message: GETTING_STARTED_INVALID })
  dismissed!: boolean;
}
