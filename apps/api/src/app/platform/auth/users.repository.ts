import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { runTransaction } from '../database/transaction';
import { BusinessEntity } from './business.entity';
import { UserEntity } from './user.entity';

/** What signup stores: the business and its owner (trimmed texts; the password already hashed). */
export interface NewAccount {
  business: { name: string; website: string; phone: string; country: string };
  owner: { email: string; firstName: string; lastName: string; passwordHash: string };
}

/**
 * Auth's way to the `users` and `businesses` tables: signup's insert and the reads of login,
 * refresh and `me`. Emails compare case-insensitively (`lower(email)`). The signed-in owner's
 * later edits go through `AccountRepository` (account module).
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** True when some account already uses this email (any case). */
  emailTaken(manager: EntityManager, email: string): Promise<boolean> {
    return manager
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getExists();
  }

  /** Inserts a business and its owner (inside `manager`'s transaction). */
  async insertAccount(
    manager: EntityManager,
    account: NewAccount,
  ): Promise<{ user: UserEntity; business: BusinessEntity }> {
    const business = await manager.getRepository(BusinessEntity).save(account.business);
    const user = await manager
      .getRepository(UserEntity)
      .save({ ...account.owner, businessId: business.id });
    return { user, business };
  }

  /** The account with this email (any case), or null. */
  findByEmail(email: string): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  /** The account with this email (any case) and its business loaded, or null (a password reset). */
  findByEmailWithBusiness(email: string): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .innerJoinAndSelect('u.business', 'b')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  /**
   * Replaces a user's password hash (argon2id PHC string) with one of a password they chose (a
   * reset link), inside `manager`'s transaction.
   */
  async setPasswordHash(
    manager: EntityManager,
    userId: string,
    passwordHash: string,
  ): Promise<void> {
    await manager
      .getRepository(UserEntity)
      .update({ id: userId }, { passwordHash, passwordChosen: true });
  }

  /**
   * Remembers that the user's password, as `passwordHash`, no longer meets Grove's rule (a
   * password sign-in just saw it): only while that is still their password.
   */
  async markPasswordOutdated(userId: string, passwordHash: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE users SET outdated_password_hash = password_hash
       WHERE id = $1 AND password_hash = $2 AND outdated_password_hash IS DISTINCT FROM password_hash`,
      [userId, passwordHash],
    );
  }

  /**
   * True when the user's current password is one a sign-in found no longer meets the rule
   * (`markPasswordOutdated`; a changed password has another hash and is not).
   */
  async passwordOutdated(userId: string): Promise<boolean> {
    const [row] = (await this.dataSource.query(
      `SELECT outdated_password_hash = password_hash AS outdated FROM users WHERE id = $1`,
      [userId],
    )) as { outdated: boolean | null }[];
    return row?.outdated === true;
  }

  /** The user with their business loaded, or null when the user no longer exists. */
  findWithBusiness(userId: string, manager?: EntityManager): Promise<UserEntity | null> {
    return (manager ?? this.dataSource.manager)
      .getRepository(UserEntity)
      .findOne({ where: { id: userId }, relations: { business: true } });
  }

  /**
   * Runs `work` in one transaction (`runTransaction`: a deadlock or serialization failure runs it
   * once more, so it must only use the manager it receives).
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.dataSource, work);
  }
}
