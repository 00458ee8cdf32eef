import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One refresh token (table `sessions`). Only the SHA-256 (hex) of the token is stored. Each
 * refresh revokes the row and creates its successor (`replaced_by_id`) in the same family (one
 * sign-in), so a token presented again after rotation is detected as reuse. `expires_at` is the
 * earlier of the family's absolute end (`signed_in_at` + REFRESH_TOKEN_TTL_SECONDS) and the idle
 * deadline (`created_at` + SESSION_IDLE_TIMEOUT_SECONDS).
 */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** The first session of this sign-in (`id` of the row the login created); shared by its rotations. */
  @Column({ name: 'family_id', type: 'uuid' })
  familyId!: string;

  /** When the owner signed in with a password (start of the absolute lifetime); shared by the family. */
  @Column({ name: 'signed_in_at', type: 'timestamptz' })
  signedInAt!: Date;

  @Column({ name: 'refresh_token_hash', type: 'text' })
  refreshTokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** The session that replaced this one on refresh (null when revoked by logout or still live). */
  @Column({ name: 'replaced_by_id', type: 'uuid', nullable: true })
  replacedById!: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
