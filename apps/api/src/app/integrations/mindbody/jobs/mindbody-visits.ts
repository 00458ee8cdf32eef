import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { MindbodyRequestError } from '@grove/api-mindbody';
import { errorMessage } from '../../../platform/common/error-message';
import { mapLimit } from '../../../platform/common/async/map-limit';
import type { BusinessScope } from '../../../platform/database/business-scope';
import {
  VisitSources,
  type MemberVisits,
  type VisitSource,
  type VisitWindow,
} from '../../../member/referral-nudges/visit-source';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import { MindbodySiteSession } from '../client/mindbody-site-session';
import { MindbodyCrypto } from '../persistence/mindbody-crypto';
import { MindbodyRepository } from '../persistence/mindbody.repository';

/** Visit reads of one run sent to Mindbody at once (as the sync's contract reads). */
const VISITS_CONCURRENCY = 4;

/** The stage from which a business's members are Mindbody clients (docs/product.md#mindbody-stages). */
const MEMBERS_IMPORTED_STAGE = 3;

/**
 * Reads how often members came, from the gym's Mindbody (issue 33 item 5, "after their Nth
 * visit"; docs/decisions/mindbody-visits.md): one {@link MindbodySiteSession} per run (the
 * integration's stored staff token, re-issued when refused), the client lib's retries and 429
 * back-off, and the run's calls recorded on the integration (`recordCalls`) as every Mindbody run
 * does. Registers itself as the app's `VisitSources` at start-up.
 */
@Injectable()
export class MindbodyVisits implements VisitSource, OnModuleInit {
  private readonly logger = new Logger(MindbodyVisits.name);

  constructor(
    private readonly integrations: MindbodyRepository,
    private readonly siteClient: MindbodySiteClient,
    private readonly crypto: MindbodyCrypto,
    private readonly sources: VisitSources,
  ) {}

  onModuleInit(): void {
    this.sources.register(this);
  }

  /** True when the business's Mindbody is connected and its members imported (stage 3 or more). */
  async tellsVisits(scope: BusinessScope): Promise<boolean> {
    const integration = await this.integrations.find(scope);
    return !!integration && integration.stage >= MEMBERS_IMPORTED_STAGE;
  }

  /**
   * Each client's visits whose class started in [its window's `since`, `until`), asking Mindbody
   * up to `askUntil` (`MindbodyRunClient.countVisits`: one GetClientVisits per client and 200
   * visits), {@link VISITS_CONCURRENCY} clients at once. A client Mindbody does not know or fails
   * for (after the client's retries) gets `visits: null` and is logged; the others go on.
   * @returns one entry per window, in order; [] when Mindbody is not connected
   * @throws `MindbodyUnavailableError`, `MindbodyAuthError`; `MindbodyLoginRefusedError` when the
   *   stored credentials no longer work; `SealedSecretError` when they cannot be decrypted
   */
  async visitsBetween(
    scope: BusinessScope,
    windows: readonly VisitWindow[],
    until: Date,
    askUntil: Date,
  ): Promise<MemberVisits[]> {
    if (windows.length === 0) return [];
    const integration = await this.integrations.find(scope);
    if (!integration || integration.stage < MEMBERS_IMPORTED_STAGE) return [];
    const session = new MindbodySiteSession(
      integration,
      this.siteClient,
      this.crypto,
      this.integrations,
    );
    try {
      return await mapLimit([...windows], VISITS_CONCURRENCY, async ({ clientId, since }) => {
        try {
          const visits = await session.call((client) =>
            client.countVisits(clientId, { since, until, askUntil }),
          );
          return { clientId, visits };
        } catch (error) {
          if (!(error instanceof MindbodyRequestError)) throw error;
          this.logger.warn(`Mindbody visits of client ${clientId}: ${errorMessage(error)}`);
          return { clientId, visits: null };
        }
      });
    } finally {
      await this.integrations.recordCalls(scope, session.calls, false);
    }
  }
}
