import { Controller, Get, Header } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import type { RemoteName } from '@grove/contracts';
import { WebAppsService } from './web-apps.service';

/** The per-environment remotes manifest (DESIGN §5), outside `/api`. */
@ApiTags('web')
@Controller()
export class WebController {
  constructor(private readonly web: WebAppsService) {}

  /**
   * `GET /remotes.json` (public, `Cache-Control: no-cache`) →
   * `{ marketing, dashboard, integrations, referral }` manifest URLs
   * (default `/remotes/<name>/mf-manifest.json`, overridden by `REMOTE_<NAME>_URL`).
   */
  @Public()
  @Get('remotes.json')
  @Header('Cache-Control', 'no-cache')
  remotes(): Record<RemoteName, string> {
    return this.web.remotesManifest();
  }
}
