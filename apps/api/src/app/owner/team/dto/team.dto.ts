import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow, IsString, MaxLength } from 'class-validator';
import {
  EMAIL_MAX_LENGTH,
  INVITATION_INVALID_MESSAGE,
  STAFF_ROLES,
  validateStaffInvitation,
  validateStaffRoleChange,
  type InvitationAcceptRequest,
  type StaffInvitationRequest,
  type StaffRole,
  type StaffRoleChangeRequest,
} from '@grove/contracts';
import { ValidatedBy } from '../../../platform/common/validated-by';
import { NewPasswordProperty } from '../../../platform/auth/dto/new-password.property';

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
