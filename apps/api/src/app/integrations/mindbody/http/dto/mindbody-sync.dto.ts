import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { MESSAGES, type MindbodySyncRequest } from '@grove/contracts';

/**
 * Body of `POST /api/mindbody/sync` (issue 25): `confirm`, the `fingerprint` of the preview the
 * owner confirmed (`GET /api/mindbody/sync/preview`: 32 lowercase hex digits). Anything that is
 * not one → 400 `MESSAGES.mindbodySyncConfirmRequired`; a missing one is refused by the service
 * (after the stage check, so a sync below stage 4 still answers 409).
 */
export class MindbodySyncDto implements Partial<MindbodySyncRequest> {
  // Required in the contract; optional to class-validator so that the service answers a sync
  // below stage 4 with its 409 before the missing confirmation's 400.
  @ApiProperty({
    example: '3f1c0e9a4b2d8c7e6f5a4b3c2d1e0f9a',
    description: 'The fingerprint of the confirmed preview',
  })
  @IsOptional()
  @IsString({ message: MESSAGES.mindbodySyncConfirmRequired })
  @Matches(/^[0-9a-f]{32}$/, { message: MESSAGES.mindbodySyncConfirmRequired })
  confirm?: string;
}
