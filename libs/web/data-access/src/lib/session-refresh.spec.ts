import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { HttpResponse, apiError, http, server } from '@grove/web-testing';
import type * as Api from './api';
import { REFRESH_LOCK_NAME, sessionHint } from './session-refresh';

/** Sets the readable session hint cookie in jsdom's cookie jar (every tab's `document.cookie`). */
const setHint = (value: string | null) => {
  document.cookie =
    value === null
      ? `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
      : `${SESSION_HINT_COOKIE}=${value}; path=/`;
};

/**
 * One browser: a cookie jar and a Grove API (the fake API's handlers) that rotates refresh tokens
 * and notices reuse. A request gets 401 when the access cookie it carried had expired. Like the
 * API, every issued set of cookies carries a new hint value, and a refused refresh clears them.
 */
function fakeBrowser() {
  const jar = { accessFresh: false, refreshToken: 'r0' };
  setHint('h0');
  const api = {
    rotations: 0,
    reused: [] as string[],
    rotated: new Set<string>(),
    refuseRefresh: false,
  };
  const calls: string[] = [];
  let onRequest: (() => void) | undefined;
  /** Takes the cookies a request carries; the reply comes a little later. */
  const arrive = async (request: Request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    const presented = { ...jar };
    onRequest?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
    return presented;
  };
  /** An owner route: its path (relative to the API, as the client's) when the access cookie was fresh, else 401. */
  const ownerRoute = async ({ request }: { request: Request }) => {
    const presented = await arrive(request);
    return presented.accessFresh
      ? HttpResponse.json({ path: new URL(request.url).pathname.replace(/^\/api/, '') })
      : apiError(401, 'Please log in');
  };
  server.use(
    http.get('/auth/me', ownerRoute as never),
    http.get('/members', ownerRoute as never),
    http.get('/prospects', ownerRoute as never),
    http.post('/auth/login', ownerRoute as never),
    http.post('/auth/signup', ownerRoute as never),
    http.post('/auth/logout', ownerRoute as never),
    http.post('/auth/refresh', async ({ request }) => {
      const presented = await arrive(request);
      const reused = api.rotated.has(presented.refreshToken);
      if (reused) api.reused.push(presented.refreshToken);
      if (api.refuseRefresh || reused) {
        setHint(null);
        return apiError(401, 'Your session has ended. Please log in again.');
      }
      api.rotated.add(presented.refreshToken);
      api.rotations += 1;
      jar.refreshToken = `r${api.rotations}`;
      jar.accessFresh = true;
      setHint(`h${api.rotations}`);
      return HttpResponse.json({ id: 'u1' } as never);
    }),
  );
  /** Resolves when the next request reaches the API with its cookies. */
  const nextRequest = () =>
    new Promise<void>((resolve) => {
      onRequest = resolve;
    });
  return { jar, server: api, calls, nextRequest };
}

/** A minimal Web Locks manager: exclusive locks by name, granted in request order (as the browser's). */
function fakeLocks() {
  const tails = new Map<string, Promise<unknown>>();
  const requested: string[] = [];
  return {
    requested,
    request<T>(name: string, work: () => Promise<T>): Promise<T> {
      requested.push(name);
      const run = (tails.get(name) ?? Promise.resolve()).then(() => work());
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

type OwnerGet = '/auth/me' | '/members' | '/prospects';
type AuthPost = '/auth/login' | '/auth/signup' | '/auth/logout';

/** A tab: its own copy of the data-access modules, sharing the browser's cookies, API and locks. */
function openTab() {
  let tab!: typeof Api;
  jest.isolateModules(() => {
    tab = jest.requireActual<typeof Api>('./api');
  });
  return {
    get: (path: OwnerGet) => tab.unwrap(tab.api.GET(path as '/auth/me')),
    post: (path: AuthPost) =>
      tab.unwrap(tab.api.POST(path as '/auth/login', { body: {} as never })),
  };
}

describe('single-flight session refresh', () => {
  let browser: ReturnType<typeof fakeBrowser>;
  let locks: ReturnType<typeof fakeLocks> | undefined;
  beforeEach(() => {
    browser = fakeBrowser();
    locks = fakeLocks();
    Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  });
  afterEach(() => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
  });

  it('two tabs whose requests fail together refresh once: the second waits and retries with the new cookies', async () => {
    const [a, b] = [openTab(), openTab()];
    const results = await Promise.all([a.get('/auth/me'), b.get('/members')]);
    expect(results).toEqual([{ path: '/auth/me' }, { path: '/members' }]);
    expect(browser.calls.filter((call) => call === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(browser.server.reused).toEqual([]);
    expect(locks?.requested).toEqual([REFRESH_LOCK_NAME, REFRESH_LOCK_NAME]);
    expect(sessionHint()).toBe('h1');
  });

  it('five rounds of three tabs reloading after expiry: one refresh a round, never a reused token', async () => {
    const tabs = [openTab(), openTab(), openTab()];
    for (let round = 1; round <= 5; round++) {
      browser.jar.accessFresh = false;
      await expect(Promise.all(tabs.map((tab) => tab.get('/auth/me')))).resolves.toHaveLength(3);
      expect(browser.server.rotations).toBe(round);
    }
    expect(browser.server.reused).toEqual([]);
  });

  it('requests of one tab share one refresh, even without Web Locks', async () => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
    const tab = openTab();
    await Promise.all([tab.get('/members'), tab.get('/prospects'), tab.get('/auth/me')]);
    expect(browser.calls.filter((call) => call === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(browser.calls.filter((call) => call.startsWith('GET'))).toHaveLength(6);
  });

  it('refreshes again when the access cookie expires after an earlier refresh', async () => {
    const tab = openTab();
    await tab.get('/members');
    browser.jar.accessFresh = false;
    await tab.get('/members');
    expect(browser.server.rotations).toBe(2);
  });

  it('when the session has ended, every tab gets the 401 (and nothing is retried)', async () => {
    browser.server.refuseRefresh = true;
    const [a, b] = [openTab(), openTab()];
    const failures = await Promise.all(
      [a.get('/members'), b.get('/members')].map((call) => call.catch((error: unknown) => error)),
    );
    for (const failure of failures)
      expect(failure).toMatchObject({ name: 'ApiError', status: 401, message: 'Please log in' });
    expect(browser.calls.filter((call) => call === 'GET /api/members')).toHaveLength(2);
  });

  it('retries without refreshing when the cookies changed since the request was sent (a login in another tab)', async () => {
    setHint(null);
    const tab = openTab();
    const sent = browser.nextRequest();
    const pending = tab.get('/members');
    await sent;
    // While the request is on its way, the owner signs in in another tab.
    browser.jar.accessFresh = true;
    setHint('after-login');
    await expect(pending).resolves.toEqual({ path: '/members' });
    expect(browser.calls).toEqual(['GET /api/members', 'GET /api/members']);
  });

  it('never refreshes for the auth routes whose 401 is an answer', async () => {
    const tab = openTab();
    for (const path of ['/auth/login', '/auth/signup', '/auth/logout'] as const) {
      await expect(tab.post(path)).rejects.toMatchObject({
        status: 401,
      });
    }
    expect(browser.calls).toEqual([
      'POST /api/auth/login',
      'POST /api/auth/signup',
      'POST /api/auth/logout',
    ]);
  });
});
