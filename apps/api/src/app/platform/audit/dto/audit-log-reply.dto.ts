import { ApiProperty, ApiPropertyOptional, ApiSchema, type SchemaObject } from '@nestjs/swagger';

import { IsInt, Max, Min } from 'class-validator';
import {
  AUDIT_KINDS,
  AUDIT_MESSAGES,
  AUDIT_RETENTION_DAYS,
  type AuditActor,
  type AuditEntry,
  type AuditKind,
  type AuditLogPage,
  type AuditValue,
} from '@grove/contracts';

/** A value of a before or after: text, a number (cents, days, counts), yes/no or null. */
const AUDIT_SCALAR: SchemaObject = {
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
  nullable: true,
};

/** One entry of the audit log. */
@ApiSchema({ name: 'AuditEntry' })
export class AuditEntryDto implements AuditEntry {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'ISO 8601 time of the change' }) at!: string;
  @ApiProperty({ enum: ['staff', 'mindbody', 'stripe', 'system'] }) actor!: AuditActor;
  @ApiProperty({ type: String, nullable: true }) authorUserId!: string | null;
  @ApiProperty({ description: 'The author as named at the time' }) authorName!: string;
  @ApiProperty({ enum: AUDIT_KINDS }) kind!: AuditKind;
  @ApiProperty({ type: String, nullable: true }) memberId!: string | null;
  @ApiProperty({ type: String, nullable: true }) memberName!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: AUDIT_SCALAR, nullable: true })
  before!: AuditValue | null;
  @ApiProperty({ type: 'object', additionalProperties: AUDIT_SCALAR, nullable: true })
  after!: AuditValue | null;
}

/** One page of the audit log, newest first. */
@ApiSchema({ name: 'AuditLogPage' })
export class AuditLogPageDto implements AuditLogPage {
  @ApiProperty({ type: [AuditEntryDto] }) items!: AuditEntryDto[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() pageSize!: number;
  @ApiPropertyOptional() totalCapped?: boolean;
}

/** Someone who wrote in the log: a member of staff (user id) or mindbody, stripe, system. */
@ApiSchema({ name: 'AuditAuthor' })
export class AuditAuthorDto {
  @ApiProperty({ description: 'Staff user id, or mindbody, stripe, system' }) id!: string;
  @ApiProperty() name!: string;
}

/** How many days the business keeps its audit log (30–3650, default 730). */
@ApiSchema({ name: 'AuditRetention' })
export class AuditRetentionDto {
  @ApiProperty({ minimum: AUDIT_RETENTION_DAYS.min, maximum: AUDIT_RETENTION_DAYS.max })
  @IsInt({ message: AUDIT_MESSAGES.retentionInvalid })
  @Min(AUDIT_RETENTION_DAYS.min, { message: AUDIT_MESSAGES.retentionInvalid })
  @Max(AUDIT_RETENTION_DAYS.max, { message: AUDIT_MESSAGES.retentionInvalid })
  days!: number;
}
