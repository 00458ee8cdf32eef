import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A prospective member (docs/product.md#entities): a friend who joined through a member's referral link and waits
 * for the owner's approval. Table `prospects`, unique `(business_id, email_key)`; the row goes
 * with its referring member.
 */
@Entity({ name: 'prospects' })
export class ProspectEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId!: string;

  /** Whose link was used; null for a friend of the business's own join page (issue 33 item 4). */
  @Column({ name: 'referring_member_id', type: 'uuid', nullable: true })
  referringMemberId!: string | null;

  /** "Who referred you?" as a friend of the business's join page typed it, or null. */
  @Column({ name: 'referred_by_note', type: 'text', nullable: true })
  referredByNote!: string | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  /** `emailKey(email)`: lower case, dots removed (docs/product.md#entities). */
  @Column({ name: 'email_key', type: 'text' })
  emailKey!: string;

  /** The integration that manages this prospect ('Mindbody'), or null (docs/product.md#mindbody-setup 'Managed by {integration}'). */
  @Column({ type: 'text', nullable: true })
  source!: string | null;

  /** Fraud signals of the join, sorted (issue 15 part 4; `JoinSignal` codes). */
  @Column({ type: 'text', array: true, default: () => "'{}'::text[]" })
  flags!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
