import { Injectable } from '@nestjs/common';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '../../platform/config/app-config';
import { ThrottleStore } from '../../platform/throttle/throttle-store';
import { TooManyLinkRequestsException } from './member-page.exceptions';
import { clientNetwork } from '../../platform/common/client-network';

/**
 * Throttles new member page link requests on the shared throttle store (PostgreSQL
 * `throttle_counters`, or Redis with REDIS_URL): THROTTLE_MEMBER_LINK_LIMIT per client address (an IPv6 one by its /64:
 * `clientNetwork`) per 60 s and THROTTLE_MEMBER_LINK_EMAIL_LIMIT per email address per hour; over either, the
 * request is refused (429) for the rest of that window. Both apply alike to members and
 * strangers, so a refusal says nothing about membership. THROTTLE_DISABLED switches them off.
 */
@Injectable()
export class LinkRequestThrottle {
  private readonly perClient: RateLimiterAbstract;
  private readonly perEmail: RateLimiterAbstract;

  constructor(
    private readonly config: AppConfig,
    store: ThrottleStore,
  ) {
    const { linkRequestsPerClient, linkRequestsPerEmail } = config.memberAuth;
    this.perClient = store.createLimiter({
      keyPrefix: 'grove-throttle:member-link-client',
      points: linkRequestsPerClient,
      duration: 60,
      blockDuration: 60,
    });
    this.perEmail = store.createLimiter({
      keyPrefix: 'grove-throttle:member-link-email',
      points: linkRequestsPerEmail,
      duration: 3600,
      blockDuration: 3600,
    });
  }

  /**
   * Counts one request of `clientAddress` for `emailKey`.
   * @throws TooManyLinkRequestsException 429 over either limit
   */
  async consume(clientAddress: string, emailKey: string): Promise<void> {
    if (this.config.throttleDisabled) return;
    try {
      await this.perClient.consume(clientNetwork(clientAddress));
      await this.perEmail.consume(emailKey);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        throw new TooManyLinkRequestsException(Math.ceil(error.msBeforeNext / 1000));
      }
      throw error;
    }
  }
}
