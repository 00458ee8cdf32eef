import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The business's share message (issue 33 item 3, docs/product.md#share-message):
 * `businesses.share_message`, the text members send friends from the member page, placeholders
 * unfilled; NULL until the owner writes one (the default message then). At most 500 characters.
 */
export class ShareMessage1795572000000 implements MigrationInterface {
  name = 'ShareMessage1795572000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE businesses
         ADD COLUMN share_message text NULL
         CONSTRAINT businesses_share_message_length CHECK (char_length(share_message) <= 500)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE businesses DROP COLUMN share_message`);
  }
}
