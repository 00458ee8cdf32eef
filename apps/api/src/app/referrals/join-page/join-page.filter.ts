import { Catch, type ArgumentsHost } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiExceptionFilter } from '../../common/api-exception.filter';
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
export class JoinPageExceptionFilter extends ApiExceptionFilter {
  constructor(private readonly assets: JoinPageAssetsService) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const { statusCode } = this.reply(exception, http.getRequest<Request>(), response);
    if (response.headersSent) return;
    const assets = this.assets.headers(response);
    response.status(statusCode).send(renderJoinPage({ kind: 'failure' }, assets));
  }
}
