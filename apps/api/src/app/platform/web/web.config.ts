import path from 'node:path';
import { REMOTE_NAMES, type RemoteName } from '@grove/contracts';
import { IsString } from 'class-validator';
import { invalidConfiguration } from '../common/config/env-section';

/** Where the built web apps and the deployed remote versions are (relative to the working directory). */
export class WebEnv {
  /** Folder holding the built web apps (`shell`, `marketing`, …). */
  @IsString()
  WEB_DIST_DIR = 'dist/apps';

  /**
   * Folder of the deployed remote versions (`<name>/<version>/`) and of `current.json`, which says
   * the version of each remote new page loads use (`npm run remote:deploy`).
   */
  @IsString()
  REMOTES_DIR = 'dist/remotes';
}

/** The environment variable that points remote `name` elsewhere, e.g. `REMOTE_MARKETING_URL`. */
export function remoteUrlVariable(name: RemoteName): string {
  return `REMOTE_${name.toUpperCase()}_URL`;
}

/** Where the shell loads remote `name` from when nothing overrides it: the API's own copy of its build. */
export function defaultRemoteUrl(name: RemoteName): string {
  return `/remotes/${name}/mf-manifest.json`;
}

/** True for an absolute http(s) URL or a path on Grove's own origin (`/…`, not `//host`). */
function isRemoteUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The web app settings of `AppConfig`. The web apps the shell loads at run time
 * (docs/architecture.md#remote-loading) each may be overridden by `REMOTE_<NAME>_URL` in `env`.
 * @param cwd the directory WEB_DIST_DIR and REMOTES_DIR are resolved from
 * @throws Error naming every REMOTE_<NAME>_URL that is neither an http(s) URL nor a path
 */
export function readWebConfig(
  vars: WebEnv,
  env: Record<string, string | undefined>,
  cwd: string,
): {
  /** Absolute path of the web apps' build output. */
  webDistDir: string;
  /** Manifest URL of each remote (`defaultRemoteUrl(name)` unless overridden by `REMOTE_<NAME>_URL`). */
  remoteUrls: Readonly<Record<RemoteName, string>>;
  /** Absolute path of the deployed remote versions and their `current.json` (REMOTES_DIR). */
  remotesDir: string;
} {
  const remoteUrls = Object.fromEntries(
    REMOTE_NAMES.map((name) => [name, env[remoteUrlVariable(name)] || defaultRemoteUrl(name)]),
  ) as Record<RemoteName, string>;
  const badRemoteUrls = REMOTE_NAMES.filter((name) => !isRemoteUrl(remoteUrls[name])).map(
    (name) =>
      `${remoteUrlVariable(name)}: must be an http(s) URL or a path starting with / (its mf-manifest.json)`,
  );
  if (badRemoteUrls.length > 0) throw invalidConfiguration(badRemoteUrls);
  return {
    webDistDir: path.resolve(cwd, vars.WEB_DIST_DIR),
    remoteUrls,
    remotesDir: path.resolve(cwd, vars.REMOTES_DIR),
  };
}
