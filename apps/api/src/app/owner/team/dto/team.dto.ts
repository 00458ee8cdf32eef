import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow, IsObject, IsString, MaxLength } from 'class-validator';
import {
  EMAIL_MAX_LENGTH,
  INVITATION_INVALID_MESSAGE,
  PASSKEY_MESSAGES,
  STAFF_ROLES,
  validateStaffInvitation,
  validateStaffRoleChange,
  type InvitationAcceptRequest,
  type InvitationPasskeyAcceptRequest,
  type InvitationPasskeyOptionsRequest,
  type StaffInvitationRequest,
  type StaffRole,
  type StaffRoleChangeRequest,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';
import { NewPasswordProperty } from '../../../platform/auth/dto/new-password.property';
import { SessionUserDto } from '../../../platform/auth/dto/session-user.dto';

const ROLE_PROPERTY = { enum: STAFF_ROLES, enumName: 'StaffRole' } as const;

/** `POST /api/team/invitations` body, checked with contracts' `validateStaffInvitation`. */
@ValidatedBy(validateStaffInvitation)
export class StaffInvitationDto implements StaffInvitationRequest {
  @ApiProperty({ example: 'renee@greenvalley.com.au', maxLength: EMAIL_MAX_LENGTH })
  @Allow()
  email!: string;

  @ApiProperty(ROLE_PROPERTY)
  @Allow()
  role!: StaffRole;
}

/** `PATCH /api/team/members/{id}` body, checked with contracts' `validateStaffRoleChange`. */
@ValidatedBy(validateStaffRoleChange)
export class StaffRoleChangeDto implements StaffRoleChangeRequest {
  @ApiProperty(ROLE_PROPERTY)
  @Allow()
  role!: StaffRole;
}

/** The link's token (from its `#token=`): `POST /api/team/invitations/lookup`. */
export class InvitationTokenDto {
  @ApiProperty({ description: 'From the link, `#token=…`' })
  @IsString({ message: INVITATION_INVALID_MESSAGE })
  @MaxLength(200, { message: INVITATION_INVALID_MESSAGE })
  token!: string;
}

/**
 * `POST /api/team/invitations/accept` body: the token, the invitee's name and password. Types and
 * sizes here; the name and password rules run in the service (contracts'
 * `validateInvitationAccept`, as the web form).
 */
export class InvitationAcceptDto extends InvitationTokenDto implements InvitationAcceptRequest {
  @ApiProperty({ example: 'Renée' })
  @IsString()
  @MaxLength(1000)
  firstName!: string;

  @ApiProperty({ example: "O'Brien" })
  @IsString()
  @MaxLength(1000)
  lastName!: string;

  @NewPasswordProperty()
  password!: string;
}

/**
 * `POST /api/team/invitations/passkey/options` body: the token, the invitee's name and the
 * passkey's name (docs/product.md#staff-accounts). Types and sizes here; the rules run in the
 * service (contracts' `validateInvitationPasskey`, as the web form).
 */
export class InvitationPasskeyOptionsDto
  extends InvitationTokenDto
  implements InvitationPasskeyOptionsRequest
{
  @ApiProperty({ example: 'Zoë' })
  @IsString()
  @MaxLength(1000)
  firstName!: string;

  @ApiProperty({ example: "D'Arcy-Nguyễn" })
  @IsString()
  @MaxLength(1000)
  lastName!: string;

  @ApiProperty({ example: 'Work laptop', maxLength: 60 })
  @IsString({ message: PASSKEY_MESSAGES.nameMissing })
  @MaxLength(200, { message: PASSKEY_MESSAGES.nameTooLong })
  passkeyName!: string;
}

/** `POST /api/team/invitations/passkey` body: the options' fields and the browser's answer. */
export class InvitationPasskeyAcceptDto
  extends InvitationPasskeyOptionsDto
  implements InvitationPasskeyAcceptRequest
{
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The browser's answer as `@simplewebauthn/browser`'s `startRegistration` gives it (RegistrationResponseJSON)",
  })
  @IsObject({ message: PASSKEY_MESSAGES.responseMissing })
  response!: Record<string, unknown>;
}

/** An invitation accepted with a passkey: the new member of staff, signed in, and their recovery codes. */
@ApiSchema({ name: 'InvitationPasskeyAccepted' })
export class InvitationPasskeyAcceptedDto {
  @ApiProperty({ type: SessionUserDto })
  user!: SessionUserDto;

  @ApiProperty({
    type: [String],
    description:
      '10 recovery codes (`xxxxx-xxxxx`), shown once: the passkey is their first second factor',
  })
  recoveryCodes!: string[];
}

/** One member of staff on the Team card. */
@ApiSchema({ name: 'StaffMember' })
export class StaffMemberDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Renée' })
  firstName!: string;

  @ApiProperty({ example: "O'Brien" })
  lastName!: string;

  @ApiProperty({ example: 'renee@greenvalley.com.au' })
  email!: string;

  @ApiProperty(ROLE_PROPERTY)
  role!: StaffRole;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Their latest sign-in with a password (null: never)',
  })
  lastSignInAt!: string | null;

  @ApiProperty({
    type: Number,
    example: 0,
    description:
      'Seconds their sign-in stays paused by too many failed attempts on their account (0: not paused); the owner may lift it',
  })
  signInPausedSeconds!: number;

  @ApiPropertyOptional({ enum: [true], description: 'Present (true) on the caller' })
  you?: true;
}

/** One invitation not yet accepted, revoked or expired. */
@ApiSchema({ name: 'StaffInvitation' })
export class StaffInvitationRowDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'renee@greenvalley.com.au' })
  email!: string;

  @ApiProperty(ROLE_PROPERTY)
  role!: StaffRole;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'The link stops working (7 days after it was sent)',
  })
  expiresAt!: string;
}

/** `GET /api/team`: the business's staff (owners first) and its pending invitations (newest first). */
@ApiSchema({ name: 'Team' })
export class TeamDto {
  @ApiProperty({ type: [StaffMemberDto] })
  members!: StaffMemberDto[];

  @ApiProperty({ type: [StaffInvitationRowDto] })
  invitations!: StaffInvitationRowDto[];
}

/** What the invitation page shows before the invitee signs up (`POST /api/team/invitations/lookup`). */
@ApiSchema({ name: 'InvitationInfo' })
export class InvitationInfoDto {
  @ApiProperty({ example: 'Green Valley Fitness' })
  businessName!: string;

  @ApiProperty({ example: 'renee@greenvalley.com.au' })
  email!: string;

  @ApiProperty(ROLE_PROPERTY)
  role!: StaffRole;
}
