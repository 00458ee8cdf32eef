import { HttpStatus } from '@nestjs/common';
import { REFERRER_REWARD_MESSAGES } from '@grove/contracts';
import { GroveException } from '../../platform/common/grove.exception';

/** No reward owed with this id in the session's business. → 404 */
export class RewardOwedNotFoundException extends GroveException {
  override readonly status = HttpStatus.NOT_FOUND;

  constructor() {
    super(REFERRER_REWARD_MESSAGES.owedNotFound);
  }
}

/** The reward is past the referrer's yearly cap: nothing is owed, nothing to honour. → 409 */
export class RewardOwedCappedException extends GroveException {
  override readonly status = HttpStatus.CONFLICT;

  constructor() {
    super(REFERRER_REWARD_MESSAGES.owedCapped);
  }
}
