import fs from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { REMOTE_NAMES, type RemoteName } from '@grove/contracts';

/** The file in REMOTES_DIR naming each remote's current version: `{ "marketing": "<version>" }`. */
export const CURRENT_VERSIONS_FILE = 'current.json';

/** A version folder's name (`npm run remote:deploy` makes `<UTC yyyymmdd-hhmmss>-<content hash>`). */
export const REMOTE_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** URL of the manifest of a stored version of remote `name`, served by the API from REMOTES_DIR. */
export function versionedRemoteUrl(name: RemoteName, version: string): string {
  return `/remotes/${name}@${version}/mf-manifest.json`;
}

/**
 * The deployed versions of the remotes (REMOTES_DIR): `<dir>/<name>/<version>/` holds one build
 * each, and `<dir>/current.json` says which one new page loads use. The file is re-read whenever
 * it changes (checked with one `stat` per call: inode, mtime and size), so `npm run remote:use`
 * takes effect for the next page load without restarting the API. Every API instance that sees
 * the same folder (a shared volume) follows the same file.
 */
export class RemoteVersions {
  private readonly logger = new Logger('RemoteVersions');
  private readonly file: string;
  private seen: string | null = null;
  private versions: Readonly<Partial<Record<RemoteName, string>>> = {};

  /** @param dir absolute path of REMOTES_DIR (it need not exist: then no remote has a version) */
  constructor(private readonly dir: string) {
    this.file = path.join(dir, CURRENT_VERSIONS_FILE);
  }

  /**
   * The current version of each remote that has one, as `current.json` says now. Entries naming
   * an unknown remote, a malformed version or a version without a stored `mf-manifest.json` are
   * left out (with a warning); an unreadable or malformed file keeps the last good answer.
   */
  current(): Readonly<Partial<Record<RemoteName, string>>> {
    let stamp: string;
    try {
      const stat = fs.statSync(this.file);
      stamp = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === this.seen) return this.versions;
    this.seen = stamp;
    if (stamp === 'missing') {
      this.versions = {};
      return this.versions;
    }
    try {
      this.versions = this.parse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
    } catch (error) {
      this.logger.warn(
        `${this.file} could not be read (${(error as Error).message}): keeping the remotes' previous versions`,
      );
    }
    return this.versions;
  }

  /** The folder of a stored version of `name`, or null when it is not a stored version. */
  folder(name: RemoteName, version: string): string | null {
    if (!REMOTE_VERSION_PATTERN.test(version)) return null;
    const folder = path.join(this.dir, name, version);
    return fs.existsSync(path.join(folder, 'mf-manifest.json')) ? folder : null;
  }

  private parse(content: unknown): Partial<Record<RemoteName, string>> {
    if (!content || typeof content !== 'object' || Array.isArray(content)) {
      throw new Error('not an object of remote name → version');
    }
    const versions: Partial<Record<RemoteName, string>> = {};
    for (const [name, version] of Object.entries(content)) {
      const remote = REMOTE_NAMES.find((known) => known === name);
      if (remote && typeof version === 'string' && this.folder(remote, version)) {
        versions[remote] = version;
      } else {
        this.logger.warn(
          `${this.file}: ${name} → ${JSON.stringify(version)} is not a stored remote version; ignored`,
        );
      }
    }
    return versions;
  }
}
