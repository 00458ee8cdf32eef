import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { RemoteName } from '@grove/contracts';

/**
 * `GET /remotes.json`: each remote's `mf-manifest.json` URL, which the shell loads at run time
 * (docs/architecture.md#remote-loading).
 */
@ApiSchema({ name: 'RemotesManifest' })
export class RemotesManifestDto implements Record<RemoteName, string> {
  @ApiProperty({ example: '/remotes/marketing/mf-manifest.json' })
  marketing!: string;

  @ApiProperty({ example: '/remotes/dashboard/mf-manifest.json' })
  dashboard!: string;

  @ApiProperty({ example: '/remotes/integrations/mf-manifest.json' })
  integrations!: string;

  @ApiProperty({ example: '/remotes/referral/mf-manifest.json' })
  referral!: string;
}
