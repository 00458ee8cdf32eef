import { Catch } from '@nestjs/common';
import type { Response } from 'express';
import { InlinePageExceptionFilter } from '../../../platform/web/inline-page-http';
import { JoinPageAssetsService } from './join-page-assets.service';
import { renderJoinPage } from './join-page.view';

/**
 * The join page's errors as a page, not JSON (a browser without JavaScript shows whatever the
 * form's POST answers): the status the API would answer (`ApiExceptionFilter`: 403 from the origin
 * check, 404 for a dead code, 429 over THROTTLE_REFERRAL_LIMIT, 503 when the database is down,
 * 500), with the product's failure text 'Something went wrong! Please try again. If this continues
 * to occur, the link may be expired.' (docs/product.md#referral-join), the same for every friend.
 */
@Catch()
export class JoinPageExceptionFilter extends InlinePageExceptionFilter {
  constructor(private readonly assets: JoinPageAssetsService) {
    super();
  }

  protected render(_message: string, response: Response): string {
    return renderJoinPage({ kind: 'failure' }, this.assets.headers(response));
  }
}
