import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobsService } from '../../../platform/jobs/jobs.service';
import { errorMessage } from '../../../platform/common/error-message';
import { MindbodySiteClient } from '../client/mindbody-site-client';
import { MindbodyRepository } from '../persistence/mindbody.repository';

/** The pg-boss queue of the hourly webhook subscription check. */
const WEBHOOK_WATCH_QUEUE = 'mindbody-webhook-watch';
/** Every hour, at minute 17 (UTC). */
const WEBHOOK_WATCH_CRON = '17 * * * *';

/**
 * Keeps Grove's one Mindbody webhook subscription delivering (issue 22): Mindbody deactivates a
 * subscription whose deliveries keep failing (`DeactivatedTooManyFailedMessageDeliveryAttempts`,
 * a documented status) and tells nobody. Every hour (a pg-boss schedule, one instance runs it)
 * this reads the subscription's status (Webhooks API `GET /subscriptions/{id}`) and, when it is not
 * 'Active', activates it again (`PATCH … {status: 'Active'}`); what it found is stored
 * (`MindbodyRepository.saveSubscriptionHealth`), and the wizard of every business at stage 4 says
 * webhooks are down while it could not. 'Sync with mindbody' keeps members up to date meanwhile.
 */
@Injectable()
export class MindbodyWebhookWatch implements OnModuleInit {
  private readonly logger = new Logger(MindbodyWebhookWatch.name);

  constructor(
    private readonly jobs: JobsService,
    private readonly integrations: MindbodyRepository,
    private readonly siteClient: MindbodySiteClient,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.jobs.register<object>(
      { name: WEBHOOK_WATCH_QUEUE, policy: 'singleton', retryLimit: 0 },
      async () => {
        await this.check();
      },
    );
    await this.jobs.schedule(WEBHOOK_WATCH_QUEUE, WEBHOOK_WATCH_CRON);
  }

  /**
   * One check: nothing without a subscription; else its status, reactivated when not 'Active'.
   * Mindbody failing is not thrown: a status read but not changed counts as down; a status that
   * could not be read keeps the last check's.
   * @returns the status after the check ('Active' when it delivers), or null without a subscription
   */
  async check(): Promise<string | null> {
    const subscription = await this.integrations.accountSubscription();
    if (!subscription) return null;
    // A check that cannot read the status keeps what the last one found.
    let status = subscription.status ?? 'Unknown';
    try {
      status = await this.siteClient.subscriptionStatus(subscription.subscriptionId);
      if (status !== 'Active') {
        this.logger.warn(`Mindbody webhook subscription is ${status}: activating it again`);
        status = await this.siteClient.reactivate(subscription.subscriptionId);
      }
    } catch (error) {
      this.logger.warn(`Mindbody webhook subscription check failed: ${errorMessage(error)}`);
    }
    await this.integrations.saveSubscriptionHealth(
      subscription.subscriptionId,
      status,
      status === 'Active',
    );
    return status;
  }
}
