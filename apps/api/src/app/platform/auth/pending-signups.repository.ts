import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SignupInput } from '@grove/contracts';

/** A sign-up waiting for its emailed link: the form (trimmed) and the password's hash. */
export interface PendingSignup {
  email: string;
  businessName: string;
  website: string;
  phone: string;
  country: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
}

/**
 * The only way to `pending_signups` (migration PendingSignups, docs/product.md#signup): sign-up
 * links stored as the SHA-256 (hex) of their token only. Not business-scoped: no business exists
 * yet; the token is the credential, as for a reset link.
 */
@Injectable()
export class PendingSignupsRepository {
  /**
   * Stores a sign-up for `signup.email` valid `ttlSeconds`, inside `manager`'s transaction, in
   * place of the address's unused one (any case; its link stops working; two at once: the later
   * wins, on the unique index `pending_signups_email`); deletes every sign-up that ended more
   * than a day ago.
   */
  async replace(
    manager: EntityManager,
    signup: PendingSignup,
    tokenHash: string,
    ttlSeconds: number,
  ): Promise<void> {
    await manager.query(`DELETE FROM pending_signups WHERE expires_at < now() - interval '1 day'`);
    await manager.query(
      `INSERT INTO pending_signups (token_hash, email, business_name, website, phone, country,
                                    first_name, last_name, password_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10))
       ON CONFLICT (lower(email)) WHERE used_at IS NULL DO UPDATE SET
         token_hash = EXCLUDED.token_hash, email = EXCLUDED.email,
         business_name = EXCLUDED.business_name, website = EXCLUDED.website,
         phone = EXCLUDED.phone, country = EXCLUDED.country, first_name = EXCLUDED.first_name,
         last_name = EXCLUDED.last_name, password_hash = EXCLUDED.password_hash,
         created_at = now(), expires_at = EXCLUDED.expires_at`,
      [
        tokenHash,
        signup.email,
        signup.businessName,
        signup.website,
        signup.phone,
        signup.country,
        signup.firstName,
        signup.lastName,
        signup.passwordHash,
        ttlSeconds,
      ],
    );
  }

  /**
   * Uses a sign-up link inside `manager`'s transaction: marks it used in the statement that checks
   * it is unused and not expired (of two concurrent uses one wins).
   * @returns the sign-up, or null when the link is unknown, used or expired
   */
  async consume(manager: EntityManager, tokenHash: string): Promise<PendingSignup | null> {
    const rows: {
      email: string;
      business_name: string;
      website: string;
      phone: string;
      country: string;
      first_name: string;
      last_name: string;
      password_hash: string;
    }[] = await manager.query(
      `WITH used AS (
         UPDATE pending_signups SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
          RETURNING email, business_name, website, phone, country, first_name, last_name,
                    password_hash)
       SELECT * FROM used`,
      [tokenHash],
    );
    const row = rows[0];
    return row
      ? {
          email: row.email,
          businessName: row.business_name,
          website: row.website,
          phone: row.phone,
          country: row.country,
          firstName: row.first_name,
          lastName: row.last_name,
          passwordHash: row.password_hash,
        }
      : null;
  }
}

/** The row to store for a checked sign-up form (`SignupDto`'s rule passed). */
export function pendingSignupOf(input: SignupInput, passwordHash: string): PendingSignup {
  return {
    email: input.email.trim(),
    businessName: input.businessName.trim(),
    website: input.website.trim(),
    phone: input.phoneNumber.trim(),
    country: input.country,
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    passwordHash,
  };
}
