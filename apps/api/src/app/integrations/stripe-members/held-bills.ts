import { hrefs } from '@grove/contracts';
import type { HeldBillsService } from '../mindbody/pending-bills-email';

/**
 * A gym's Stripe bills held for the owner's review (issue 32): the held-bills email names Stripe
 * and links to the Stripe Billing page, where 'Review bill changes' lists them.
 */
export const STRIPE_HELD_BILLS: HeldBillsService = { name: 'Stripe', path: hrefs.stripeSetup };
