import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invitation accepted with a passkey (issue 34 item 1, docs/decisions/passkeys.md): a WebAuthn
 * challenge may now be of purpose `invitation`, bound to the pending invitation it was handed out
 * for (`invitation_id`, gone with the invitation) and carrying the id the new member of staff will
 * have (`new_user_id`: the passkey's user handle is that id, as for a passkey added in Security).
 * Only an `invitation` challenge has both.
 */
export class InvitationPasskeys1795608000000 implements MigrationInterface {
  name = 'InvitationPasskeys1795608000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE webauthn_challenges
         DROP CONSTRAINT webauthn_challenges_purpose_check,
         ADD COLUMN invitation_id uuid NULL REFERENCES staff_invitations (id) ON DELETE CASCADE,
         ADD COLUMN new_user_id uuid NULL,
         ADD CONSTRAINT webauthn_challenges_purpose_check
           CHECK (purpose IN ('registration', 'authentication', 'invitation')),
         ADD CONSTRAINT webauthn_challenges_invitation_check
           CHECK ((purpose = 'invitation') = (invitation_id IS NOT NULL AND new_user_id IS NOT NULL))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM webauthn_challenges WHERE purpose = 'invitation'`);
    await queryRunner.query(
      `ALTER TABLE webauthn_challenges
         DROP CONSTRAINT webauthn_challenges_invitation_check,
         DROP CONSTRAINT webauthn_challenges_purpose_check,
         DROP COLUMN new_user_id,
         DROP COLUMN invitation_id,
         ADD CONSTRAINT webauthn_challenges_purpose_check
           CHECK (purpose IN ('registration', 'authentication'))`,
    );
  }
}
