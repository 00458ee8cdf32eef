import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import {
  localeFormats,
  NO_WELCOME_OFFER,
  normalizeWelcomeOffer,
  welcomeOfferCostCents,
  welcomeOfferWording,
  type WelcomeOffer,
  type WelcomeOfferGrant,
} from '@grove/contracts';
import { MembershipEvents } from '../../membership/events/membership-events';
import { AuditLog } from '../../platform/audit/audit-log';
import type { BusinessScope } from '../../platform/database/business-scope';
import { WelcomeOfferGrantNotFoundException } from './welcome-offer.exceptions';
import { WelcomeOfferRepository, type WelcomeOfferGrantRecord } from './welcome-offer.repository';

const toGrant = (record: WelcomeOfferGrantRecord): WelcomeOfferGrant => ({
  id: record.id,
  memberId: record.memberId,
  memberName: record.memberName,
  offer: record.offer,
  wording: record.wording,
  grantedAt: record.grantedAt.toISOString(),
  honouredAt: record.honouredAt ? record.honouredAt.toISOString() : null,
  stripe: record.stripe,
});

/**
 * The friend's welcome offer (issue 33 item 1, docs/product.md#welcome-offer): the business's
 * setting, its grant to a friend at approval (a snapshot of the offer and its wording) and the
 * owner's list of offers to honour by hand. Every method takes the session's `BusinessScope`.
 */
@Injectable()
export class WelcomeOfferService {
  constructor(
    private readonly offers: WelcomeOfferRepository,
    private readonly audit: AuditLog,
    private readonly events: MembershipEvents,
  ) {}

  /** The business's offer (`NO_WELCOME_OFFER` until the owner sets one). */
  async get(scope: BusinessScope): Promise<WelcomeOffer> {
    return (await this.offers.get(scope)).offer ?? NO_WELCOME_OFFER;
  }

  /**
   * Saves a validated offer, keeping only its kind's fields, and records the change in the audit
   * log ('Welcome offer', docs/product.md#audit-log) in one transaction. @returns it as stored
   */
  save(scope: BusinessScope, offer: WelcomeOffer): Promise<WelcomeOffer> {
    return this.audit.changeSetting(
      scope,
      'Welcome offer',
      async (manager) => ({
        ...NO_WELCOME_OFFER,
        ...((await this.offers.get(scope, manager)).offer ?? {}),
      }),
      async (manager) =>
        (await this.offers.save(scope, manager, normalizeWelcomeOffer(offer))) ?? NO_WELCOME_OFFER,
    );
  }

  /**
   * At a friend's approval, inside its transaction: records the business's current offer as
   * granted to the new member (`welcome_offer_grants`, the offer and its wording as they are now,
   * so a later change of the setting does not change what this friend was promised) with its cost
   * at the friend's membership price then (`cost_cents`, business currency; null for a text
   * offer), and announces 'welcome-offer.granted' in the same transaction (the Stripe member
   * billing queues the coupon's job there: a person's approval is the confirmation).
   * @param byStaff a person approved (false: an automatic approval, whose offer is honoured by hand)
   * @returns the wording granted, or null when the business offers nothing
   */
  async grantAtApproval(
    scope: BusinessScope,
    manager: EntityManager,
    memberId: string,
    byStaff: boolean,
  ): Promise<string | null> {
    const { offer, locale } = await this.offers.get(scope, manager);
    const wording = welcomeOfferWording(offer, localeFormats(locale));
    if (!offer || wording === null) return null;
    const grantId = await this.offers.grant(scope, manager, memberId, offer, wording, (price) =>
      welcomeOfferCostCents(offer, price),
    );
    if (grantId && byStaff)
      await this.events.emit('welcome-offer.granted', { scope, manager, grantId, memberId, offer });
    return wording;
  }

  /**
   * What the offers granted in `[start, end)` cost (Analytics, next to the referrer discounts),
   * from what was recorded: how many; the sum of their `cost_cents` (business currency: recorded
   * at approval from the friend's price then, and from the Stripe subscription's price when the
   * coupon was written); how many are text offers honoured by hand.
   */
  costIn(
    scope: BusinessScope,
    start: Date,
    end: Date,
  ): Promise<{ granted: number; costCents: number; byHand: number }> {
    return this.offers.grantedIn(scope, start, end);
  }

  /**
   * Whether an approval now writes the offer to the gym's Stripe: its member billing is connected
   * (docs/decisions/welcome-offer.md).
   */
  appliesInStripe(scope: BusinessScope): Promise<boolean> {
    return this.offers.stripeConnected(scope);
  }

  /** The offers granted to friends: to honour first, then honoured ones. */
  async grants(scope: BusinessScope): Promise<WelcomeOfferGrant[]> {
    return (await this.offers.listGrants(scope)).map(toGrant);
  }

  /**
   * The owner honoured a granted offer by hand (idempotent).
   * @throws WelcomeOfferGrantNotFoundException 404 when the business has no such grant
   */
  async markHonoured(scope: BusinessScope, grantId: string): Promise<WelcomeOfferGrant> {
    const record = isUUID(grantId) ? await this.offers.markHonoured(scope, grantId) : null;
    if (!record) throw new WelcomeOfferGrantNotFoundException();
    return toGrant(record);
  }
}
