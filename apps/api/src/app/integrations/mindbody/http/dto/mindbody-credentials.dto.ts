import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { isPlainText, MESSAGES, type MindbodyCredentialsRequest } from '@grove/contracts';
import { FollowsRule, trimString } from '../../../../platform/common/contract-rule.decorator';

const required = { message: MESSAGES.mindbodyInvalidCredentials };

/**
 * Body of `POST /api/mindbody/credentials` (docs/product.md#validation-mindbody: username, password and site ID all required;
 * docs/product.md#errors: 'Invalid credentials provided' when any is missing, or when the username or site ID holds
 * a control character: both travel in Mindbody request headers and bodies). The password is never
 * trimmed.
 */
export class MindbodyCredentialsDto implements MindbodyCredentialsRequest {
  @ApiProperty({ example: 'owner@sandbox.example.com' })
  @Transform(trimString)
  @IsString(required)
  @IsNotEmpty(required)
  @MaxLength(200, required)
  @FollowsRule(isPlainText, required.message)
  username!: string;

  @ApiProperty({ example: 'sandbox-pass-1234', format: 'password' })
  @IsString(required)
  @IsNotEmpty(required)
  @MaxLength(200, required)
  password!: string;

  @ApiProperty({ example: '-99', description: 'Mindbody site ID' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' ? String(value) : trimString({ value }),
  )
  @IsString(required)
  @IsNotEmpty(required)
  @MaxLength(40, required)
  @FollowsRule(isPlainText, required.message)
  siteId!: string;
}
