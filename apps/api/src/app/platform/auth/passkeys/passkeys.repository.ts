import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { BusinessScope } from '../../database/business-scope';
import { runTransaction } from '../../database/transaction';

/** A registered passkey as the Security card lists it. */
export interface PasskeyRow {
  id: string;
  name: string;
  /** Synced to the user's other devices (a multi-device credential that is backed up). */
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A passkey as a sign-in verifies it. */
export interface StoredCredential {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
}

/** A new passkey's columns. */
export interface NewPasskey {
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  backedUp: boolean;
  name: string;
}

type PasskeyDbRow = {
  id: string;
  name: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
};

const toPasskey = (row: PasskeyDbRow): PasskeyRow => ({
  id: row.id,
  name: row.name,
  backedUp: row.backed_up,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

type CredentialDbRow = {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
};

const toCredential = (row: CredentialDbRow): StoredCredential => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
});

/**
 * `user_passkeys` and `webauthn_challenges` (migration Passkeys).
 * TENANCY: the signed-in user's methods take the session's `BusinessScope` and check that the
 * user is of that business; the sign-in methods are not scoped: they run before any session
 * exists, the challenge (single use, stored server-side) and the passkey's signature are the proof.
 */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The scoped user's passkeys, oldest first. */
  async list({ businessId }: BusinessScope, userId: string): Promise<PasskeyRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, name, backed_up, created_at, last_used_at FROM user_passkeys
        WHERE user_id = $1 AND business_id = $2 ORDER BY created_at, id`,
      [userId, businessId],
    )) as PasskeyDbRow[];
    return rows.map(toPasskey);
  }

  /** Credential ids of the user's passkeys (the browser must not register one twice; sign-in lists them). */
  async credentialsOf(userId: string): Promise<{ id: string; transports: string[] }[]> {
    const rows = (await this.dataSource.query(
      `SELECT credential_id, transports FROM user_passkeys WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    )) as { credential_id: string; transports: string[] }[];
    return rows.map((row) => ({ id: row.credential_id, transports: row.transports }));
  }

  /** The scoped user's email and name (what the authenticator shows), or null when not of the business. */
  async userOf(
    { businessId }: BusinessScope,
    userId: string,
  ): Promise<{ email: string; displayName: string } | null> {
    const rows = (await this.dataSource.query(
      `SELECT email, first_name || ' ' || last_name AS display_name FROM users
        WHERE id = $1 AND business_id = $2`,
      [userId, businessId],
    )) as { email: string; display_name: string }[];
    return rows[0] ? { email: rows[0].email, displayName: rows[0].display_name } : null;
  }

  /** Stores a challenge handed to a browser; the user's older ones of the same purpose and every expired one end. */
  async openChallenge(
    challenge: string,
    purpose: 'registration' | 'authentication',
    userId: string | null,
    ttlSeconds: number,
  ): Promise<void> {
    await runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `DELETE FROM webauthn_challenges
          WHERE expires_at < now() OR ($1::uuid IS NOT NULL AND user_id = $1 AND purpose = $2)`,
        [userId, purpose],
      );
      await manager.query(
        `INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [challenge, purpose, userId, ttlSeconds],
      );
    });
  }

  /**
   * Uses a challenge: deletes it when it is live and of `purpose`.
   * @returns `{ userId }` (null for a passwordless sign-in), or null when unknown, used or expired
   */
  async useChallenge(
    challenge: string,
    purpose: 'registration' | 'authentication',
  ): Promise<{ userId: string | null } | null> {
    const rows = (await this.dataSource.query(
      `WITH used AS (DELETE FROM webauthn_challenges
                      WHERE challenge = $1 AND purpose = $2 AND expires_at > now() RETURNING user_id)
       SELECT user_id FROM used`,
      [challenge, purpose],
    )) as { user_id: string | null }[];
    return rows[0] ? { userId: rows[0].user_id } : null;
  }

  /**
   * Stores a registration challenge handed to an invitee (migration InvitationPasskeys): bound to
   * the pending invitation and carrying the id the new member of staff will get; the invitation's
   * older challenge and every expired one end.
   */
  async openInvitationChallenge(
    challenge: string,
    invitationId: string,
    newUserId: string,
    ttlSeconds: number,
  ): Promise<void> {
    await runTransaction(this.dataSource, async (manager) => {
      await manager.query(
        `DELETE FROM webauthn_challenges WHERE expires_at < now() OR invitation_id = $1`,
        [invitationId],
      );
      await manager.query(
        `INSERT INTO webauthn_challenges (challenge, purpose, invitation_id, new_user_id, expires_at)
         VALUES ($1, 'invitation', $2, $3, now() + make_interval(secs => $4))`,
        [challenge, invitationId, newUserId, ttlSeconds],
      );
    });
  }

  /**
   * Uses an invitation's registration challenge: deletes it when it is live.
   * @returns the invitation it is bound to and the new member of staff's id, or null when
   *   unknown, used, expired or not an invitation's
   */
  async useInvitationChallenge(
    challenge: string,
  ): Promise<{ invitationId: string; newUserId: string } | null> {
    const rows = (await this.dataSource.query(
      `WITH used AS (DELETE FROM webauthn_challenges
                      WHERE challenge = $1 AND purpose = 'invitation' AND expires_at > now()
                      RETURNING invitation_id, new_user_id)
       SELECT invitation_id, new_user_id FROM used`,
      [challenge],
    )) as { invitation_id: string; new_user_id: string }[];
    return rows[0] ? { invitationId: rows[0].invitation_id, newUserId: rows[0].new_user_id } : null;
  }

  /**
   * Adds a passkey to the scoped user, inside `manager`'s transaction.
   * @returns the passkey, or null when the credential is already registered (to anyone)
   */
  async add(
    { businessId }: BusinessScope,
    userId: string,
    passkey: NewPasskey,
    manager: EntityManager,
  ): Promise<PasskeyRow | null> {
    const rows = (await manager.query(
      `INSERT INTO user_passkeys (user_id, business_id, credential_id, public_key, counter, transports, backed_up, name)
       SELECT id, business_id, $3, $4, $5, $6, $7, $8 FROM users WHERE id = $1 AND business_id = $2
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING id, name, backed_up, created_at, last_used_at`,
      [
        userId,
        businessId,
        passkey.credentialId,
        Buffer.from(passkey.publicKey),
        passkey.counter,
        passkey.transports,
        passkey.backedUp,
        passkey.name,
      ],
    )) as PasskeyDbRow[];
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  /** The passkey with this credential id (any user: a sign-in), or null. */
  async byCredentialId(credentialId: string): Promise<StoredCredential | null> {
    const rows = (await this.dataSource.query(
      `SELECT id, user_id, credential_id, public_key, counter, transports FROM user_passkeys
        WHERE credential_id = $1`,
      [credentialId],
    )) as CredentialDbRow[];
    return rows[0] ? toCredential(rows[0]) : null;
  }

  /**
   * Records a sign-in: the new signature counter and the time, only if the counter is still the
   * one verified against (a concurrent use of a cloned key loses).
   * @returns false when the counter moved in between
   */
  async recordUse(id: string, verifiedCounter: number, newCounter: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH used AS (UPDATE user_passkeys SET counter = $3, last_used_at = now()
                      WHERE id = $1 AND counter = $2 RETURNING id)
       SELECT id FROM used`,
      [id, verifiedCounter, newCounter],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * Removes one of the scoped user's passkeys, inside `manager`'s transaction, unless it is the
   * last passkey of an account whose person never chose a password (`users.password_chosen`).
   * The user's row is locked first, so two removals of the account's last two passkeys take turns
   * and the second one counts what the first left.
   * @returns 'removed'; 'missing' when there is no such passkey of that user; 'last' when it is
   *   their last one and they have no password of their own (nothing removed)
   */
  async remove(
    { businessId }: BusinessScope,
    userId: string,
    id: string,
    manager: EntityManager,
  ): Promise<'removed' | 'missing' | 'last'> {
    await manager.query(
      `SELECT 1 FROM users WHERE id = $1 AND business_id = $2 FOR NO KEY UPDATE`,
      [userId, businessId],
    );
    const rows = (await manager.query(
      `WITH target AS (
         SELECT p.id,
                u.password_chosen OR EXISTS (
                  SELECT 1 FROM user_passkeys o WHERE o.user_id = p.user_id AND o.id <> p.id)
                  AS removable
           FROM user_passkeys p JOIN users u ON u.id = p.user_id
          WHERE p.id = $1 AND p.user_id = $2 AND p.business_id = $3),
       gone AS (DELETE FROM user_passkeys
                 WHERE id IN (SELECT id FROM target WHERE removable) RETURNING id)
       SELECT (SELECT count(*) FROM target)::int AS found, (SELECT count(*) FROM gone)::int AS removed`,
      [id, userId, businessId],
    )) as { found: number; removed: number }[];
    const [{ found, removed }] = rows;
    return removed > 0 ? 'removed' : found > 0 ? 'last' : 'missing';
  }

  /** Runs `work` in one transaction (`runTransaction`: it may run twice on a conflict). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
