import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { StaffRole } from '@grove/contracts';
import { BusinessEntity } from './business.entity';

/**
 * A member of staff of one business who signs in (its owner, or staff the owner invited;
 * docs/product.md#staff-accounts). Email is unique across Grove, case-insensitively. Table `users`.
 */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId!: string;

  @ManyToOne(() => BusinessEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: BusinessEntity;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName!: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName!: string;

  /** What the user may do in the business (`RoleGuard`, the role table); a business keeps at least one owner. */
  @Column({ type: 'text', default: 'owner' })
  role!: StaffRole;

  /** argon2id PHC string. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  /**
   * The password is one the person chose; false for an account that joined with a passkey (its
   * hash is of 256 random bits nobody knows) until they set one (docs/decisions/passkeys.md).
   * Read only by the account's own Security card, never at sign-in.
   */
  @Column({ name: 'password_chosen', type: 'boolean', default: true })
  passwordChosen!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
