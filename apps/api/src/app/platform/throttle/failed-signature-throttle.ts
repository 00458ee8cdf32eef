import { Injectable } from '@nestjs/common';
import {
  InjectThrottlerStorage,
  ThrottlerException,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { clientAddress, tooManyAttemptsMessage } from './throttling';

/** The throttle's name in the counters' store. */
const NAME = 'webhook-signature';
const MINUTE_MS = 60_000;

/**
 * Failed webhook signatures per client address (issue 31 item 6: public webhook routes are
 * throttled without slowing the service that signs them). Only failures count, so Mindbody's own
 * bursts of signed deliveries are never refused; a client past THROTTLE_WEBHOOK_SIGNATURE_LIMIT
 * failures in 60 s gets 429 'Too many attempts. Please wait a minute and try again.' for a minute.
 */
@Injectable()
export class FailedSignatureThrottle {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts one failed signature of `request`'s client.
   * @param request the webhook request (its `ip` is the client, as the throttler reads it)
   * @throws ThrottlerException 429 once the client is over the limit
   */
  async countFailure(request: Record<string, unknown>): Promise<void> {
    if (this.config.throttleDisabled) return;
    const limit = this.config.throttleWebhookSignatureLimit;
    const record = await this.storage.increment(
      `${NAME}-${clientAddress(request)}`,
      MINUTE_MS,
      limit,
      MINUTE_MS,
      NAME,
    );
    if (record.isBlocked)
      throw new ThrottlerException(tooManyAttemptsMessage(record.timeToBlockExpire));
  }
}
