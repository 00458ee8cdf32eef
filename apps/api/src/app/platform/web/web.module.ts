import { Module } from '@nestjs/common';
import { WebAppsService } from './web-apps.service';
import { WebController } from './web.controller';

/** Serves the shell and the remotes' built files, and the remotes manifest. */
@Module({
  controllers: [WebController],
  providers: [WebAppsService],
  exports: [WebAppsService],
})
export class WebModule {}
