// Registers the remotes listed in the environment's manifest, then starts the app. A manifest
// that cannot be read still starts the shell: every remote slot then shows its fallback.
// Everything that uses shared modules sits behind the dynamic import of ./bootstrap: the async
// boundary lets Module Federation set up the shared scope first. The manifest reader uses no
// shared module (@grove/contracts is bundled, not shared), so it is imported directly: one
// round trip less before the first page renders (index.html also preloads /remotes.json).
import { preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { readRemotesManifest } from './app/remotes/remotes-manifest';
import { remoteForPath } from '@grove/contracts';

readRemotesManifest()
  .then((remotes) => {
    registerRemotes(remotes);
    // Fetch the remote this page needs (its manifest, entry and route module) while React and
    // the router download, instead of after they have rendered.
    const target = remoteForPath(window.location.pathname);
    if (target && remotes.some((entry) => entry.name === target.remote)) {
      preloadRemote([
        { nameOrAlias: target.remote, exposes: [target.expose], resourceCategory: 'sync' },
      ]).catch(() => {
        // Only a head start: the page loads the remote again (with its fallback) when it renders.
      });
    }
  })
  .catch((error: unknown) => console.error('Grove: could not register remotes', error))
  .finally(() => import('./bootstrap'));
