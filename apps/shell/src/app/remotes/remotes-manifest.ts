import { REMOTE_NAMES, type RemoteName } from '@grove/contracts';

/** Where the per-environment manifest lives; served by the API with `Cache-Control: no-cache`. */
export const REMOTES_MANIFEST_URL = '/remotes.json';

/**
 * Reads `/remotes.json` (`{ "<remote>": "<url of its mf-manifest.json>" }`) and returns the
 * `{ name, entry }` pairs `registerRemotes()` takes. Unknown names are ignored.
 * @throws Error when the manifest cannot be fetched or is not an object of strings
 */
export async function readRemotesManifest(): Promise<{ name: RemoteName; entry: string }[]> {
  // The server answers with `Cache-Control: no-cache`, so the browser revalidates it anyway; a
  // default-mode request also reuses index.html's `<link rel="preload">` of it.
  const reply = await fetch(REMOTES_MANIFEST_URL);
  if (!reply.ok) throw new Error(`remotes manifest: HTTP ${reply.status}`);
  const manifest: unknown = await reply.json();
  if (!manifest || typeof manifest !== 'object') throw new Error('remotes manifest: not an object');
  return REMOTE_NAMES.flatMap((name) => {
    const entry = (manifest as Record<string, unknown>)[name];
    return typeof entry === 'string' ? [{ name, entry }] : [];
  });
}
