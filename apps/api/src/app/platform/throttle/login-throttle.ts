import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { SharedThrottlerStorage } from './shared-throttler-storage';
import { loginThrottleKey } from './throttling';

/**
 * Failed logins alone count toward THROTTLE_LOGIN_LIMIT (docs/product.md#validation-login, issue
 * 25): the 'login' throttler counts every attempt before the password is checked (so parallel
 * guesses cannot slip past the limit), and a login that succeeds gives its hit back here. An
 * owner who signs in and out all day is never throttled; 5 wrong passwords a minute are.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /**
   * Takes a successful login's attempt off its client's count (never below zero).
   * @param request the login request (its `ip` is the client, as the throttler read it)
   */
  async forgiveSuccess(request: Record<string, unknown>): Promise<void> {
    if (this.config.throttleDisabled || !(this.storage instanceof SharedThrottlerStorage)) return;
    await this.storage.refund(loginThrottleKey(request), 'login');
  }
}
