import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (issue 34 item 3, docs/decisions/passkeys.md):
 *
 * - `user_passkeys`: one row per WebAuthn credential a user registered: its id (base64url, unique
 *   across Grove: an authenticator's credential belongs to one account), the COSE public key, the
 *   signature counter last seen (a counter that does not grow refuses the sign-in), transports,
 *   whether it is backed up (synced), the name the user gave it, and its last use.
 * - `webauthn_challenges`: each challenge Grove handed to a browser (registration or sign-in),
 *   2 minutes, deleted when used (single use); `user_id` is the registering user, or for a sign-in
 *   the user whose password was right (the passkey must be theirs), NULL for a passwordless one.
 */
export class Passkeys1795590000000 implements MigrationInterface {
  name = 'Passkeys1795590000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE user_passkeys (
         id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
         user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
         business_id uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
         credential_id text NOT NULL UNIQUE,
         public_key bytea NOT NULL,
         counter bigint NOT NULL DEFAULT 0,
         transports text[] NOT NULL DEFAULT '{}',
         backed_up boolean NOT NULL DEFAULT false,
         name text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         last_used_at timestamptz NULL
       )`,
    );
    await queryRunner.query(`CREATE INDEX user_passkeys_user ON user_passkeys (user_id)`);
    await queryRunner.query(
      `CREATE TABLE webauthn_challenges (
         challenge text PRIMARY KEY,
         purpose text NOT NULL CHECK (purpose IN ('registration', 'authentication')),
         user_id uuid NULL REFERENCES users (id) ON DELETE CASCADE,
         expires_at timestamptz NOT NULL
       )`,
    );
    await queryRunner.query(
      `CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webauthn_challenges`);
    await queryRunner.query(`DROP TABLE user_passkeys`);
  }
}
