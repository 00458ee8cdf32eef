import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Drops the records of challenges that have expired (they can no longer verify anyway). */
const PRUNE_EXPIRED = `DELETE FROM captcha_solutions WHERE expires_at < now()`;

/** Records a challenge's signature; returns a row only when it was not recorded before. */
const CLAIM = `INSERT INTO captcha_solutions (signature, expires_at) VALUES ($1, $2)
  ON CONFLICT (signature) DO NOTHING RETURNING signature`;

/**
 * The only way to the `captcha_solutions` table: the altcha challenges already used (public
 * visitors: no business, no tenancy). The UNIQUE signature makes a second use lose.
 */
@Injectable()
export class CaptchaSolutionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records the challenge with this HMAC `signature` as used until `expiresAt`; prunes expired
   * records first.
   * @returns false when it was already used
   */
  async claimOnce(signature: string, expiresAt: Date): Promise<boolean> {
    await this.dataSource.query(PRUNE_EXPIRED);
    const inserted: unknown[] = await this.dataSource.query(CLAIM, [signature, expiresAt]);
    return inserted.length === 1;
  }
}
