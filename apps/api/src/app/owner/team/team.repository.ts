import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { StaffRole } from '@grove/contracts';
import type { BusinessScope } from '../../platform/database/business-scope';
import { runTransaction } from '../../platform/database/transaction';

/** A member of staff as the Team card lists them. */
export interface StaffMemberRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: StaffRole;
  lastSignInAt: Date | null;
}

/** A pending invitation (not accepted, revoked or expired). */
export interface PendingInvitationRow {
  id: string;
  email: string;
  role: StaffRole;
  createdAt: Date;
  expiresAt: Date;
}

/** An invitation a link names, with its business's name. */
export interface InvitationOfLink {
  id: string;
  businessId: string;
  businessName: string;
  email: string;
  role: StaffRole;
}

/** Owners first, then managers, front desk, viewers. */
const ROLE_ORDER = `array_position(ARRAY['owner','manager','front_desk','viewer'], u.role)`;

/**
 * The team's way to `users` (staff of a business) and `staff_invitations` (migration
 * StaffAccounts). TENANCY: every method of a business's team takes its `BusinessScope` first;
 * an `UPDATE … RETURNING` is wrapped in `WITH … SELECT` (TypeORM's `query` answers a bare one
 * with `[rows, count]`); the two link methods (`invitationOfLink`, `consume`) are not scoped: the link's token (only
 * its SHA-256 is stored) is the credential, as for a password reset.
 */
@Injectable()
export class TeamRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The business's staff, owners first, each with their latest password sign-in. */
  async members({ businessId }: BusinessScope): Promise<StaffMemberRow[]> {
    const rows: {
      id: string;
      first_name: string;
      last_name: string;
      email: string;
      role: StaffRole;
      last_sign_in_at: Date | null;
    }[] = await this.dataSource.query(
      `SELECT u.id, u.first_name, u.last_name, u.email, u.role,
              (SELECT max(s.signed_in_at) FROM sessions s WHERE s.user_id = u.id) AS last_sign_in_at
         FROM users u WHERE u.business_id = $1
        ORDER BY ${ROLE_ORDER}, u.created_at, u.id`,
      [businessId],
    );
    return rows.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      role: row.role,
      lastSignInAt: row.last_sign_in_at,
    }));
  }

  /** The business's pending invitations, newest first. */
  async pendingInvitations({ businessId }: BusinessScope): Promise<PendingInvitationRow[]> {
    const rows: {
      id: string;
      email: string;
      role: StaffRole;
      created_at: Date;
      expires_at: Date;
    }[] = await this.dataSource.query(
      `SELECT id, email, role, created_at, expires_at FROM staff_invitations
        WHERE business_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at DESC, id`,
      [businessId],
    );
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }));
  }

  /** The business's name and the inviting user's first name (for the email); null when gone. */
  async inviter(
    { businessId }: BusinessScope,
    userId: string,
  ): Promise<{ businessName: string; firstName: string } | null> {
    const [row]: { name: string; first_name: string }[] = await this.dataSource.query(
      `SELECT b.name, u.first_name FROM businesses b JOIN users u ON u.business_id = b.id
        WHERE b.id = $1 AND u.id = $2`,
      [businessId, userId],
    );
    return row ? { businessName: row.name, firstName: row.first_name } : null;
  }

  /** True when some Grove account (of any business) uses this email, any case. */
  async emailTaken(manager: EntityManager, email: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows.length > 0;
  }

  /**
   * Stores an invitation valid for `ttlSeconds` (revoking the business's pending ones to the same
   * address, any case) inside `manager`'s transaction.
   */
  async insertInvitation(
    { businessId }: BusinessScope,
    manager: EntityManager,
    invitation: {
      email: string;
      role: StaffRole;
      tokenHash: string;
      invitedBy: string;
      ttlSeconds: number;
    },
  ): Promise<PendingInvitationRow> {
    await manager.query(
      `UPDATE staff_invitations SET revoked_at = now()
        WHERE business_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL`,
      [businessId, invitation.email],
    );
    const [row]: { id: string; created_at: Date; expires_at: Date }[] = await manager.query(
      `INSERT INTO staff_invitations (business_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
       RETURNING id, created_at, expires_at`,
      [
        businessId,
        invitation.email,
        invitation.role,
        invitation.tokenHash,
        invitation.invitedBy,
        invitation.ttlSeconds,
      ],
    );
    return {
      id: row.id,
      email: invitation.email,
      role: invitation.role,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  /** Deletes an invitation whose email could not be sent. */
  async withdrawInvitation({ businessId }: BusinessScope, id: string): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM staff_invitations WHERE business_id = $1 AND id = $2`,
      [businessId, id],
    );
  }

  /** Revokes a pending invitation of the business. @returns false when it has none of that id */
  async revokeInvitation({ businessId }: BusinessScope, id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH revoked AS (
         UPDATE staff_invitations SET revoked_at = now()
          WHERE business_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL
            AND expires_at > now()
          RETURNING id)
       SELECT id FROM revoked`,
      [businessId, id],
    );
    return rows.length > 0;
  }

  /** The pending, unexpired invitation whose token has this hash, with its business's name; null otherwise. */
  async invitationOfLink(tokenHash: string): Promise<InvitationOfLink | null> {
    const [row]: {
      id: string;
      business_id: string;
      name: string;
      email: string;
      role: StaffRole;
    }[] = await this.dataSource.query(
      `SELECT i.id, i.business_id, b.name, i.email, i.role
           FROM staff_invitations i JOIN businesses b ON b.id = i.business_id
          WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL
            AND i.expires_at > now()`,
      [tokenHash],
    );
    return row
      ? {
          id: row.id,
          businessId: row.business_id,
          businessName: row.name,
          email: row.email,
          role: row.role,
        }
      : null;
  }

  /**
   * Uses an invitation link inside `manager`'s transaction: marks it accepted in the statement
   * that checks it is pending and unexpired (of two concurrent uses one wins).
   * @returns its business, address and role, and who invited (their name now, "Siobhán O'Brien";
   *   null when that member of staff was removed since), or null when the link is unknown, used,
   *   revoked or expired
   */
  async consume(
    manager: EntityManager,
    tokenHash: string,
  ): Promise<{
    businessId: string;
    email: string;
    role: StaffRole;
    invitedByName: string | null;
  } | null> {
    const [row]: {
      business_id: string;
      email: string;
      role: StaffRole;
      invited_by_name: string | null;
    }[] = await manager.query(
      `WITH used AS (
         UPDATE staff_invitations SET accepted_at = now()
          WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING business_id, email, role, invited_by)
       SELECT used.business_id, used.email, used.role,
              u.first_name || ' ' || u.last_name AS invited_by_name
         FROM used LEFT JOIN users u ON u.id = used.invited_by AND u.business_id = used.business_id`,
      [tokenHash],
    );
    return row
      ? {
          businessId: row.business_id,
          email: row.email,
          role: row.role,
          invitedByName: row.invited_by_name,
        }
      : null;
  }

  /**
   * Adds a member of staff (the password already hashed) inside `manager`'s transaction, with
   * `id` when given (an invitee's passkey already names it as its user handle).
   * @returns their id
   */
  async insertUser(
    manager: EntityManager,
    user: {
      id?: string;
      businessId: string;
      email: string;
      firstName: string;
      lastName: string;
      passwordHash: string;
      /** False when the hash is of a random secret (joined with a passkey). */
      passwordChosen: boolean;
      role: StaffRole;
    },
  ): Promise<string> {
    const [row]: { id: string }[] = await manager.query(
      `INSERT INTO users
         (id, business_id, email, first_name, last_name, password_hash, role, password_chosen)
       VALUES (COALESCE($7::uuid, gen_random_uuid()), $1, $2, $3, $4, $5, $6, $8) RETURNING id`,
      [
        user.businessId,
        user.email,
        user.firstName,
        user.lastName,
        user.passwordHash,
        user.role,
        user.id ?? null,
        user.passwordChosen,
      ],
    );
    return row.id;
  }

  /**
   * The business's staff (id → role and name, "Siobhán O'Brien"), every row locked until the
   * transaction ends (so two changes cannot each leave the other as the last owner).
   */
  async lockStaff(
    { businessId }: BusinessScope,
    manager: EntityManager,
  ): Promise<Map<string, { role: StaffRole; name: string }>> {
    const rows: { id: string; role: StaffRole; first_name: string; last_name: string }[] =
      await manager.query(
        `SELECT id, role, first_name, last_name FROM users WHERE business_id = $1 ORDER BY id FOR UPDATE`,
        [businessId],
      );
    return new Map(
      rows.map((row) => [row.id, { role: row.role, name: `${row.first_name} ${row.last_name}` }]),
    );
  }

  /** Sets a member of staff's role inside `manager`'s transaction. */
  async setRole(
    { businessId }: BusinessScope,
    manager: EntityManager,
    id: string,
    role: StaffRole,
  ): Promise<void> {
    await manager.query(`UPDATE users SET role = $3 WHERE business_id = $1 AND id = $2`, [
      businessId,
      id,
      role,
    ]);
  }

  /** Deletes a member of staff (their sessions and reset links go with them) inside `manager`'s transaction. */
  async deleteUser(
    { businessId }: BusinessScope,
    manager: EntityManager,
    id: string,
  ): Promise<void> {
    await manager.query(`DELETE FROM users WHERE business_id = $1 AND id = $2`, [businessId, id]);
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
