import { Catch } from '@nestjs/common';
import type { Response } from 'express';
import { InlinePageExceptionFilter } from '../../platform/web/inline-page-http';
import { JoinPageAssetsService } from '../referrals/join-page/join-page-assets.service';
import { renderBusinessJoinPage } from './business-join.view';

/**
 * The business join page's errors as a page (403 from another site, 404 unknown code, 429 over
 * THROTTLE_REFERRAL_LIMIT, 503, 500) with the product's failure text, the same for every visitor.
 */
@Catch()
export class BusinessJoinPageFilter extends InlinePageExceptionFilter {
  constructor(private readonly assets: JoinPageAssetsService) {
    super();
  }

  protected render(_message: string, response: Response): string {
    return renderBusinessJoinPage({ kind: 'failure' }, this.assets.headers(response));
  }
}
