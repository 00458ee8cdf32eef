import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CLOSURE_PASSWORD_MESSAGE } from '@grove/contracts';

/** Body of `POST /api/account/closure`: the owner's password, to confirm. */
export class CloseAccountDto {
  @ApiProperty({ type: String, description: "The signed-in owner's password" })
  @IsString({ message: CLOSURE_PASSWORD_MESSAGE })
  @MaxLength(1024, { message: CLOSURE_PASSWORD_MESSAGE })
  password!: string;
}

/** Whether the business is closing, and when it is deleted. */
@ApiSchema({ name: 'AccountClosure' })
export class AccountClosureDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When everything of the business is deleted; null while it stays open',
  })
  closingAt!: string | null;
}
