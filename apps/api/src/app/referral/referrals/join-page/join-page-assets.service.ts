import { Injectable } from '@nestjs/common';
import { InlinePageAssetsService } from '../../../platform/web/inline-page-assets.service';
import { WebAppsService } from '../../../platform/web/web-apps.service';

/** The join page's assets (apps/referral `features/join/page`, docs/architecture.md#join-page). */
@Injectable()
export class JoinPageAssetsService extends InlinePageAssetsService {
  constructor(web: WebAppsService) {
    super(web, 'join-page');
  }
}
