import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { fetchFake, server } from '@grove/web-testing';
import type * as ApiModule from './api';
import { REFRESH_LOCK_NAME, sessionHint } from './session-refresh';

/** Sets the readable session hint cookie in jsdom's cookie jar (every tab's `document.cookie`). */
const setHint = (value: string | null) => {
  document.cookie =
    value === null
      ? `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
      : `${SESSION_HINT_COOKIE}=${value}; path=/`;
};

/**
 * One browser: a cookie jar and a Grove API that rotates refresh tokens and notices reuse.
 * A request gets 401 when the access cookie it carried had expired. Like the API, every issued
 * set of cookies carries a new hint value, and a refused refresh clears them.
 */
function fakeBrowser() {
  const jar = { accessFresh: false, refreshToken: 'r0' };
  setHint('h0');
  const server = {
    rotations: 0,
    reused: [] as string[],
    rotated: new Set<string>(),
    refuseRefresh: false,
  };
  const calls: string[] = [];
  const json = (status: number, body?: unknown) => ({
    ok: status >= 200 && status < 300,
    status,
    text: async () => (body === undefined ? '' : JSON.stringify(body)),
  });
  const fetchMock = jest.fn(async (url: string, init: { method?: string } = {}) => {
    const method = init.method ?? 'GET';
    calls.push(`${method} ${url}`);
    // The cookies go with the request when it is sent; the reply comes a little later.
    const presented = { ...jar };
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (url === '/api/auth/refresh') {
      const reused = server.rotated.has(presented.refreshToken);
      if (reused) server.reused.push(presented.refreshToken);
      if (server.refuseRefresh || reused) {
        setHint(null);
        return json(401, {
          statusCode: 401,
          message: 'Your session has ended. Please log in again.',
        });
      }
      server.rotated.add(presented.refreshToken);
      server.rotations += 1;
      jar.refreshToken = `r${server.rotations}`;
      jar.accessFresh = true;
      setHint(`h${server.rotations}`);
      return json(200, { id: 'u1' });
    }
    return presented.accessFresh
      ? json(200, { url })
      : json(401, { statusCode: 401, message: 'Please log in' });
  });
  return { jar, server, calls, fetchMock };
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

/** A tab: its own copy of the data-access modules, sharing the browser's fetch, storage and locks. */
function openTab() {
  let tab!: typeof ApiModule;
  jest.isolateModules(() => {
    tab = jest.requireActual<typeof ApiModule>('./api');
  });
  return {
    /** `GET /api<path>` through the tab's generated client. */
    get: (path: string) => tab.unwrap(tab.api.GET(path as never)),
    /** `POST /api<path>` with an empty JSON body through the tab's generated client. */
    post: (path: string) => tab.unwrap(tab.api.POST(path as never, { body: {} } as never)),
  };
}

describe('single-flight session refresh', () => {
  let browser: ReturnType<typeof fakeBrowser>;
  let locks: ReturnType<typeof fakeLocks> | undefined;
  beforeEach(() => {
    browser = fakeBrowser();
    server.use(fetchFake(browser.fetchMock));
    locks = fakeLocks();
    Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  });
  afterEach(() => {
    Object.defineProperty(navigator, 'locks', { value: undefined, configurable: true });
  });

  it('two tabs whose requests fail together refresh once: the second waits and retries with the new cookies', async () => {
    const [a, b] = [openTab(), openTab()];
    const results = await Promise.all([a.get('/auth/me'), b.get('/members')]);
    expect(results).toEqual([{ url: '/api/auth/me' }, { url: '/api/members' }]);
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
    const pending = tab.get('/members');
    // While the request is on its way (sent, its reply not back yet), the owner signs in in
    // another tab.
    while (browser.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    browser.jar.accessFresh = true;
    setHint('after-login');
    await expect(pending).resolves.toEqual({ url: '/api/members' });
    expect(browser.calls).toEqual(['GET /api/members', 'GET /api/members']);
  });

  it('never refreshes for the auth routes whose 401 is an answer', async () => {
    const tab = openTab();
    for (const path of ['/api/auth/login', '/api/auth/signup', '/api/auth/logout']) {
      await expect(tab.post(path.slice('/api'.length))).rejects.toMatchObject({
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
