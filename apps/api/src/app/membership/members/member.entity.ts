import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A member (a "tree", docs/product.md#entities). When `referredById` is set the member is also a branch of that
 * tree (at most one). Money in integer cents. Table `members`, unique `(business_id, email_key)`.
 */
@Entity({ name: 'members' })
export class MemberEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  /** `emailKey(email)`: lower case, dots removed (docs/product.md#entities). */
  @Column({ name: 'email_key', type: 'text' })
  emailKey!: string;

  @Column({ name: 'membership_price_cents', type: 'integer' })
  membershipPriceCents!: number;

  /** Discount per referral (per branch), cents. */
  @Column({ name: 'discount_cents', type: 'integer' })
  discountCents!: number;

  @Column({ name: 'referred_by_id', type: 'uuid', nullable: true })
  referredById!: string | null;

  /**
   * Who referred this member as the desk typed it, when it matched no member (issue 33 item 4);
   * null once matched or dismissed, and for everyone else.
   */
  @Column({ name: 'referred_by_note', type: 'text', nullable: true })
  referredByNote!: string | null;

  /** Set for members imported from Mindbody: they are managed by the integration (docs/product.md#roles). */
  @Column({ name: 'mindbody_client_id', type: 'text', nullable: true })
  mindbodyClientId!: string | null;

  /** Mindbody `Client.UniqueId` of a managed member: its key (the business can change `Id`, never this). */
  @Column({ name: 'mindbody_unique_id', type: 'integer', nullable: true })
  mindbodyUniqueId!: number | null;

  /**
   * 'Add to Mindbody' at its approval (issue 33 item 4): 'pending' until its client is added or
   * linked, 'failed' when it could not be (`mindbodyAddError` says why); null otherwise.
   */
  @Column({ name: 'mindbody_add_state', type: 'text', nullable: true })
  mindbodyAddState!: 'pending' | 'failed' | null;

  /** Why adding the member's Mindbody client failed, for the owner; null unless 'failed'. */
  @Column({ name: 'mindbody_add_error', type: 'text', nullable: true })
  mindbodyAddError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
