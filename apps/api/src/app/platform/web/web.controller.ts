import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/public.decorator';
import { WebAppsService } from './web-apps.service';
import { RemotesManifestDto } from './dto/remotes-manifest.dto';

/** The per-environment remotes manifest (docs/architecture.md#remote-loading), outside `/api`. */
@ApiTags('web')
@Controller()
export class WebController {
  constructor(private readonly web: WebAppsService) {}

  /**
   * `GET /remotes.json` (public, `Cache-Control: no-cache`) →
   * `{ marketing, dashboard, integrations, referral }` manifest URLs
   * (`REMOTE_<NAME>_URL` when set, else the version `REMOTES_DIR/current.json` names,
   * `/remotes/<name>@<version>/mf-manifest.json`, else `/remotes/<name>/mf-manifest.json`).
   */
  @Public()
  @Get('remotes.json')
  @Header('Cache-Control', 'no-cache')
  @ApiOkResponse({ type: RemotesManifestDto })
  remotes(): RemotesManifestDto {
    return this.web.remotesManifest();
  }
}
