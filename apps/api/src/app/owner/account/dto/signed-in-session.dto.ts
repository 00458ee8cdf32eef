import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { SignedInSession } from '@grove/contracts';

/** One of the owner's live sign-ins (`GET /api/account/sessions`, 'Where you're signed in'). */
@ApiSchema({ name: 'SignedInSession' })
export class SignedInSessionDto implements SignedInSession {
  @ApiProperty({
    description: 'The sign-in (its session family), for `DELETE /api/account/sessions/{id}`',
    format: 'uuid',
  })
  id!: string;

  @ApiProperty({
    description: 'Browser and system from its User-Agent',
    example: 'Chrome 120 on Windows',
  })
  device!: string;

  @ApiProperty({ description: 'When it signed in (ISO 8601)', format: 'date-time' })
  signedInAt!: string;

  @ApiProperty({
    description: 'When it last refreshed its access token (ISO 8601)',
    format: 'date-time',
  })
  lastActiveAt!: string;

  @ApiProperty({ description: 'True for the browser asking' })
  current!: boolean;
}

/** `POST /api/account/sessions/sign-out-others` → how many sign-ins ended. */
@ApiSchema({ name: 'SignedOutSessions' })
export class SignedOutSessionsDto {
  @ApiProperty({ description: 'Sessions ended', example: 2 })
  ended!: number;
}
