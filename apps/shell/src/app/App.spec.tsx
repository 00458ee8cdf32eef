import { isValidElement } from 'react';
import { FALLBACK_REMOTE, REMOTE_ROUTES, SHELL_PAGES } from '@grove/contracts';
import { routes } from './App';
import { RemoteSlot } from './remotes/RemoteSlot';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn() }));

type Route = { path?: string; element?: unknown; children?: Route[] };

/** Every route with a path under `route`, as `path → RemoteSlot props` (null for other elements). */
function paths(route: Route): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const child of route.children ?? []) {
    if (child.path) {
      const element = child.element;
      found[child.path] =
        isValidElement(element) && element.type === RemoteSlot ? element.props : null;
    }
    Object.assign(found, paths(child));
  }
  return found;
}

it("mounts contracts' route → remote table: public routes and the fallback in the public frame, the rest signed in", () => {
  const [publicFrame, signedInFrame] = (routes[0] as Route).children ?? [];
  const slot = (route: { remote: string; expose: string }) => ({
    remote: route.remote,
    module: route.expose,
  });
  expect(paths(publicFrame)).toEqual({
    ...Object.fromEntries(SHELL_PAGES.map((page) => [page, null])),
    ...Object.fromEntries(
      REMOTE_ROUTES.filter((route) => route.access === 'public').map((route) => [
        `${route.segment}/*`,
        slot(route),
      ]),
    ),
    '*': slot(FALLBACK_REMOTE),
  });
  expect(paths(signedInFrame)).toEqual(
    Object.fromEntries(
      REMOTE_ROUTES.filter((route) => route.access === 'signed-in').map((route) => [
        `${route.segment}/*`,
        slot(route),
      ]),
    ),
  );
});
