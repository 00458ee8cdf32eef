import { fetchFake, server } from '@grove/web-testing';
import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { fetchSession, mayBeSignedIn } from './session';

const owner = {
  id: 'u1',
  email: 'sam@gym.example.com',
  firstName: 'Sam',
  lastName: 'Lee',
  username: 'Sam Lee',
  business: { id: 'b1', name: 'Gym' },
};
const reply = (status: number, body?: unknown) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

describe('the session on page load', () => {
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    server.use(fetchFake(fetchMock));
    document.cookie = `${SESSION_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });

  it('reads the hint cookie among others', () => {
    expect(mayBeSignedIn('theme=dark; grove_signed_in=1')).toBe(true);
    // The name the API uses when its cookies are Secure.
    expect(mayBeSignedIn('theme=dark; __Host-grove_signed_in=1')).toBe(true);
    expect(mayBeSignedIn('grove_signed_in_not=1; __Secure-grove_signed_in=1')).toBe(false);
    expect(mayBeSignedIn('theme=dark; not_grove_signed_in=1')).toBe(false);
    expect(mayBeSignedIn('')).toBe(false);
  });

  it('treats a visitor without the hint as signed out without asking the API', async () => {
    await expect(fetchSession()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the API when the hint is there', async () => {
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
    fetchMock.mockResolvedValueOnce(reply(200, owner));
    await expect(fetchSession()).resolves.toEqual(owner);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/auth/me']);
  });

  it('refreshes once when the access cookie has expired, and is signed out when that fails too', async () => {
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
    fetchMock
      .mockResolvedValueOnce(reply(401, { statusCode: 401, message: 'Unauthorized' }))
      .mockResolvedValueOnce(reply(401));
    await expect(fetchSession()).resolves.toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/auth/me', '/api/auth/refresh']);
  });
});
