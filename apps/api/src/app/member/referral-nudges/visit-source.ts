import { Injectable } from '@nestjs/common';
import type { BusinessScope } from '../../platform/database/business-scope';

/** One member's window of visits to count: from `since` (null: from the start) on. */
export interface VisitWindow {
  /** The member's id in the billing/CRM (Mindbody: `members.mindbody_client_id`). */
  clientId: string;
  /** Where the last check stopped counting (`referral_nudge_visit_checks.counted_until`), or null. */
  since: Date | null;
}

/** One member's visits in its window as the gym's billing/CRM told them. */
export interface MemberVisits {
  /** The member's id in the billing/CRM (Mindbody: `members.mindbody_client_id`). */
  clientId: string;
  /** Visits whose class started in [since, until); null when the billing/CRM failed for this member. */
  visits: number | null;
}

/**
 * Where visits come from: the gym's billing/CRM (today Mindbody's GetClientVisits,
 * `integrations/mindbody/jobs/mindbody-visits.ts`, docs/decisions/mindbody-visits.md).
 */
export interface VisitSource {
  /** True when the business's billing/CRM is connected and tells its members' visits. */
  tellsVisits(scope: BusinessScope): Promise<boolean>;
  /**
   * Each member's visits whose class started in [its `since`, `until`), asking the billing/CRM
   * up to `askUntil` (the run's time, after `until`); [] when not connected.
   */
  visitsBetween(
    scope: BusinessScope,
    windows: readonly VisitWindow[],
    until: Date,
    askUntil: Date,
  ): Promise<MemberVisits[]>;
}

/**
 * The one place the referral invitation "after their Nth visit" asks for visits (issue 33 item 5).
 * The integration that tells visits registers itself here at start-up (an integration sits above
 * `member/` in the area order, docs/architecture.md#api-areas, so it is handed in, not imported);
 * without one, no business tells visits.
 */
@Injectable()
export class VisitSources implements VisitSource {
  private source: VisitSource | null = null;

  /** Called once by the integration that tells visits (Mindbody). */
  register(source: VisitSource): void {
    this.source = source;
  }

  tellsVisits(scope: BusinessScope): Promise<boolean> {
    return this.source ? this.source.tellsVisits(scope) : Promise.resolve(false);
  }

  visitsBetween(
    scope: BusinessScope,
    windows: readonly VisitWindow[],
    until: Date,
    askUntil: Date,
  ): Promise<MemberVisits[]> {
    return this.source
      ? this.source.visitsBetween(scope, windows, until, askUntil)
      : Promise.resolve([]);
  }
}
