import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A membership business (gym, studio…): the tenant every owned row belongs to. Table `businesses`. */
@Entity({ name: 'businesses' })
export class BusinessEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  website!: string;

  @Column({ type: 'text' })
  phone!: string;

  /** ISO 3166-1 alpha-2 (docs/product.md#country); the phone number is read for it. Default 'AU'. */
  @Column({ type: 'text', default: 'AU' })
  country!: string;

  /**
   * IANA time zone its dates are shown in (docs/decisions/business-locale.md); null: the
   * country's main zone (`defaultTimeZone`).
   */
  @Column({ name: 'time_zone', type: 'text', nullable: true })
  timeZone!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** When the business is deleted after its owner asked to close it; null while open (docs/product.md#data-rights). */
  @Column({ name: 'closing_at', type: 'timestamptz', nullable: true })
  closingAt!: Date | null;

  /** When an owner verified their email, so Grove may email members for it; null before (docs/product.md#verified-senders). */
  @Column({ name: 'sender_verified_at', type: 'timestamptz', nullable: true })
  senderVerifiedAt!: Date | null;
}
