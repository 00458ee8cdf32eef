// Registers the remotes listed in the environment's manifest, then starts the app. A manifest
// that cannot be read still starts the shell: every remote slot then shows its fallback.
// Everything that uses shared modules (even @grove/contracts) sits behind a dynamic import: the
// async boundary lets Module Federation set up the shared scope first.
import { registerRemotes } from '@module-federation/enhanced/runtime';

import('./app/remotes/remotes-manifest')
  .then(async ({ readRemotesManifest }) => registerRemotes(await readRemotesManifest()))
  .catch((error: unknown) => console.error('Grove: could not register remotes', error))
  .finally(() => import('./bootstrap'));
