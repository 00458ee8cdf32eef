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
}
