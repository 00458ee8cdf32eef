import { ApiProperty } from '@nestjs/swagger';
import type { LoginRequest } from '@grove/contracts';

/** `POST /api/auth/login` body (read by passport-local; documented here for OpenAPI). */
export class LoginDto implements LoginRequest {
  @ApiProperty({ example: 'demo@grove.local' })
  email!: string;

  @ApiProperty({ example: 'grove-demo-1234' })
  password!: string;
}
