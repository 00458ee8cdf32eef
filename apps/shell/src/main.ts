// Registers the remotes listed in the environment's manifest, then starts the app. A manifest
// that cannot be read still starts the shell: every remote slot then shows its fallback.
import { registerRemotes } from '@module-federation/enhanced/runtime';
import { readRemotesManifest } from './app/remotes/remotes-manifest';

readRemotesManifest()
  .then((remotes) => registerRemotes(remotes))
  .catch((error: unknown) => console.error('Grove: could not register remotes', error))
  .finally(() => import('./bootstrap'));
