import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { HttpResponse, apiError, http, server } from '@grove/web-testing';
import type { Schema } from '@grove/api-contract';
import { fetchSession, mayBeSignedIn } from './session';

const owner: Schema<'SessionUser'> = {
  id: 'u1',
  email: 'sam@gym.example.com',
  firstName: 'Sam',
  lastName: 'Lee',
  username: 'Sam Lee',
  role: 'owner',
  business: {
    id: 'b1',
    name: 'Gym',
    country: 'AU',
    currency: 'AUD',
    locale: 'en-AU',
    timeZone: 'Australia/Sydney',
  },
};

/** Every request the fake API saw, as its path relative to `/api` (as the client's). */
function recordRequests(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) =>
    seen.push(new URL(request.url).pathname.replace(/^\/api/, '')),
  );
  return seen;
}

describe('the session on page load', () => {
  beforeEach(() => {
    document.cookie = `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
  afterEach(() => server.events.removeAllListeners());

  it('reads the hint cookie among others', () => {
    expect(mayBeSignedIn('theme=dark; grove_signed_in=1')).toBe(true);
    // The name the API uses when its cookies are Secure.
    expect(mayBeSignedIn('theme=dark; __Host-grove_signed_in=1')).toBe(true);
    expect(mayBeSignedIn('grove_signed_in_not=1; __Secure-grove_signed_in=1')).toBe(false);
    expect(mayBeSignedIn('theme=dark; not_grove_signed_in=1')).toBe(false);
    expect(mayBeSignedIn('')).toBe(false);
  });

  it('treats a visitor without the hint as signed out without asking the API', async () => {
    const seen = recordRequests();
    await expect(fetchSession()).resolves.toBeNull();
    expect(seen).toEqual([]);
  });

  it('asks the API when the hint is there', async () => {
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
    const seen = recordRequests();
    server.use(http.get('/auth/me', ({ response }) => response(200).json(owner)));
    await expect(fetchSession()).resolves.toEqual(owner);
    expect(seen).toEqual(['/auth/me']);
  });

  it('refreshes once when the access cookie has expired, and is signed out when that fails too', async () => {
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
    const seen = recordRequests();
    server.use(
      http.get('/auth/me', () => apiError(401, 'Unauthorized')),
      http.post('/auth/refresh', () => new HttpResponse(null, { status: 401 })),
    );
    await expect(fetchSession()).resolves.toBeNull();
    expect(seen).toEqual(['/auth/me', '/auth/refresh']);
  });
});
