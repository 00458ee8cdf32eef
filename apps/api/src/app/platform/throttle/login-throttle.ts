import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  InjectThrottlerStorage,
  ThrottlerException,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { SharedThrottlerStorage } from './shared-throttler-storage';
import { loginThrottleKey, tooManyAttemptsMessage } from './throttling';

/** The per-account counter's name in the counters' store. */
const ACCOUNT = 'login-account';
/** Once per window: the "sign-in paused" email of an account. */
const ACCOUNT_NOTICE = 'login-account-notice';

/**
 * An account's name in the counters' store: the SHA-256 of its email as typed at sign-in, trimmed
 * and lower-cased (no address stored in the throttle table, and any text makes a valid key).
 */
const accountId = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
const accountKey = (email: string) => `${ACCOUNT}-${accountId(email)}`;

/**
 * Failed logins alone count toward THROTTLE_LOGIN_LIMIT (docs/product.md#validation-login, issue
 * 25): the 'login' throttler counts every attempt before the password is checked (so parallel
 * guesses cannot slip past the limit), and a login that succeeds gives its hit back here. An
 * owner who signs in and out all day is never throttled; 5 wrong passwords a minute are.
 *
 * Beside it, per account (issue 34, ASVS 2.2.1: guesses spread over many addresses): every
 * attempt on one email counts, a successful one is given back, and past
 * THROTTLE_ACCOUNT_LOGIN_LIMIT failures in THROTTLE_ACCOUNT_LOGIN_WINDOW_SECONDS that account's
 * sign-in answers 429 for the window, right password or not (the same for an email of no account:
 * the answer tells nobody which emails have one). A password reset lifts the pause.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /**
   * Takes a successful login's attempt off its client's count and its account's (never below zero).
   * @param request the login request (its `ip` is the client, as the throttler read it)
   * @param email the email it signed in with
   */
  async forgiveSuccess(request: Record<string, unknown>, email: string): Promise<void> {
    if (this.config.throttleDisabled || !(this.storage instanceof SharedThrottlerStorage)) return;
    await this.storage.refund(loginThrottleKey(request), 'login');
    await this.storage.refund(accountKey(email), ACCOUNT);
  }

  /**
   * Counts one sign-in attempt on `email`'s account, before its password is checked.
   * @param onPaused runs once a window, for the attempt that pauses the account (its owner is told)
   * @throws ThrottlerException 429 'Too many attempts. Try again in N minutes.' while the account's
   *   sign-in is paused (the pausing attempt included)
   */
  async countAccountAttempt(email: string, onPaused: () => Promise<void>): Promise<void> {
    if (this.config.throttleDisabled) return;
    const { limit, windowSeconds } = this.config.throttleAccountLogin;
    const window = windowSeconds * 1000;
    const record = await this.storage.increment(accountKey(email), window, limit, window, ACCOUNT);
    if (!record.isBlocked) return;
    const notice = await this.storage.increment(
      `${ACCOUNT_NOTICE}-${accountId(email)}`,
      window,
      1,
      window,
      ACCOUNT_NOTICE,
    );
    if (!notice.isBlocked) await onPaused();
    throw new ThrottlerException(tooManyAttemptsMessage(record.timeToBlockExpire));
  }

  /**
   * Whether `email`'s sign-in is paused now (the owner's Team card shows it, issue 34 item 3).
   * @returns seconds until the pause ends; 0 when it is not paused (or throttling is off)
   */
  async pausedSeconds(email: string): Promise<number> {
    if (this.config.throttleDisabled || !(this.storage instanceof SharedThrottlerStorage)) return 0;
    const { limit, windowSeconds } = this.config.throttleAccountLogin;
    const window = windowSeconds * 1000;
    const ms = await this.storage.refusedFor(accountKey(email), window, limit, window, ACCOUNT);
    return Math.ceil(ms / 1000);
  }

  /**
   * Lifts `email`'s paused sign-in and forgets its failures (a password reset was used, or the
   * owner lifted it from the Team card).
   */
  async liftAccount(email: string): Promise<void> {
    if (!(this.storage instanceof SharedThrottlerStorage)) return;
    const { limit, windowSeconds } = this.config.throttleAccountLogin;
    const window = windowSeconds * 1000;
    await this.storage.clear(accountKey(email), window, limit, window, ACCOUNT);
  }
}
