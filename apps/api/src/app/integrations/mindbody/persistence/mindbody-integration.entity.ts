import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { MindbodyStage } from '@grove/contracts';

/**
 * A business's Mindbody integration (docs/product.md#entities user record: mindbodyIntegrationStage,
 * mindbodyDiscounts, mindbodyAccount; docs/product.md#mindbody-stages stage table). One row per business, created on the
 * first credentials check. Secrets (`*Enc`) are AES-256-GCM ciphertexts (`MindbodyCrypto`) and
 * never leave the API. Money in integer cents. Table `mindbody_integrations`.
 */
@Entity({ name: 'mindbody_integrations' })
export class MindbodyIntegrationEntity {
  @PrimaryColumn({ name: 'business_id', type: 'uuid' })
  businessId!: string;

  /** docs/product.md#states: 1 enter credentials, 2 validated, 3 members imported, 4 fully configured. */
  @Column({ type: 'smallint' })
  stage!: MindbodyStage;

  @Column({ name: 'site_id', type: 'text', nullable: true })
  siteId!: string | null;

  /** Mindbody staff username (not secret, never returned either). */
  @Column({ type: 'text', nullable: true })
  username!: string | null;

  @Column({ name: 'password_enc', type: 'text', nullable: true })
  passwordEnc!: string | null;

  @Column({ name: 'staff_token_enc', type: 'text', nullable: true })
  staffTokenEnc!: string | null;

  @Column({ name: 'staff_token_expires_at', type: 'timestamptz', nullable: true })
  staffTokenExpiresAt!: Date | null;

  /** docs/product.md#entities mindbodyDiscounts.discountOnReferral, cents (≥ 1), null until saved. */
  @Column({ name: 'discount_on_referral_cents', type: 'integer', nullable: true })
  discountOnReferralCents!: number | null;

  /** docs/product.md#entities mindbodyDiscounts.discountForReferee, cents (≥ 0), null until saved. */
  @Column({ name: 'discount_for_referee_cents', type: 'integer', nullable: true })
  discountForRefereeCents!: number | null;

  /** docs/product.md#mindbody-stages process state: null, 'running', 'completed <ISO time>' or 'failed <ISO time>'. */
  @Column({ name: 'process_state', type: 'text', nullable: true })
  processState!: string | null;

  @Column({ name: 'progress_done', type: 'integer', nullable: true })
  progressDone!: number | null;

  @Column({ name: 'progress_total', type: 'integer', nullable: true })
  progressTotal!: number | null;

  /** docs/product.md#entities mindbodyAccount.lastMindbodySync. */
  /**
   * Clients of the last completed import or sync whose email is not one plain mailbox (stored
   * with no email: issue 24 part 3); null before the first run.
   */
  @Column({ name: 'invalid_emails', type: 'integer', nullable: true })
  invalidEmails!: number | null;

  @Column({ name: 'last_sync_at', type: 'timestamptz', nullable: true })
  lastSyncAt!: Date | null;

  @Column({ name: 'webhook_subscription_id', type: 'text', nullable: true })
  webhookSubscriptionId!: string | null;

  @Column({ name: 'webhook_signature_key_enc', type: 'text', nullable: true })
  webhookSignatureKeyEnc!: string | null;

  /** Mindbody calls of the last import or sync (issue 22: Mindbody bills calls), null before one. */
  @Column({ name: 'last_run_calls', type: 'integer', nullable: true })
  lastRunCalls!: number | null;

  /**
   * Members whose Mindbody autopay the last sync wrote (issue 25, its run record; a failed sync
   * counts those written before it stopped), null before a sync.
   */
  @Column({ name: 'last_sync_bills_written', type: 'integer', nullable: true })
  lastSyncBillsWritten!: number | null;

  /**
   * Members whose Mindbody bill a webhook's sync would change, held for the owner's confirmation
   * (issue 31); null when nothing is pending.
   */
  @Column({ name: 'pending_bills_count', type: 'integer', nullable: true })
  pendingBillsCount!: number | null;

  /** The fingerprint of the pending bill changes (`billChangesFingerprint`), null when none. */
  @Column({ name: 'pending_bills_fingerprint', type: 'text', nullable: true })
  pendingBillsFingerprint!: string | null;

  /** When bill changes were first held (the owner was emailed then), null when none are pending. */
  @Column({ name: 'pending_bills_since', type: 'timestamptz', nullable: true })
  pendingBillsSince!: Date | null;

  /** Mindbody calls of every job this calendar month (`callsMonth`). */
  @Column({ name: 'month_calls', type: 'integer', default: 0 })
  monthCalls!: number;

  /** The first day of the month `monthCalls` counts (YYYY-MM-DD), null before a job. */
  /**
   * The site's referral type (`GET /client/clientreferraltypes`) the owner picked for the friends
   * Grove adds as Mindbody clients (AddClient's `ReferredBy`, issue 33 item 4); null: none sent.
   */
  @Column({ name: 'add_client_referral_type', type: 'text', nullable: true })
  addClientReferralType!: string | null;

  @Column({ name: 'calls_month', type: 'date', nullable: true })
  callsMonth!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
