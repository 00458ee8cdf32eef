import type { Schema } from '@grove/api-contract';
import { SESSION_HINT_COOKIE } from '@grove/contracts';
import { apiError, http, server } from '@grove/web-testing';
import { api, unwrap } from './api';
import { createQueryClient } from './query-client';
import { sessionKey } from './session';

const owner = {
  id: 'u1',
  username: 'Zoë D’Arcy-Nguyễn',
  role: 'front_desk',
} as Schema<'SessionUser'>;

describe('a session that ended elsewhere (removed from the team, signed out everywhere)', () => {
  beforeEach(() => {
    document.cookie = `${SESSION_HINT_COOKIE}=1; path=/`;
  });

  it('signs the person out of the app when a query still gets 401 after the one refresh', async () => {
    server.use(
      http.get('/prospects', () => apiError(401, 'Please log in')),
      http.post('/auth/refresh', () => apiError(401, 'Please log in')),
    );
    const client = createQueryClient();
    client.setQueryData(sessionKey, owner);
    await expect(
      client.fetchQuery({ queryKey: ['prospects'], queryFn: () => unwrap(api.GET('/prospects')) }),
    ).rejects.toMatchObject({ status: 401 });
    expect(client.getQueryData(sessionKey)).toBeNull();
  });

  it('keeps the session on any other error (a 403 is the role, not the session)', async () => {
    server.use(http.get('/prospects', () => apiError(403, 'Your role does not allow this.')));
    const client = createQueryClient();
    client.setQueryData(sessionKey, owner);
    await expect(
      client.fetchQuery({ queryKey: ['prospects'], queryFn: () => unwrap(api.GET('/prospects')) }),
    ).rejects.toMatchObject({ status: 403 });
    expect(client.getQueryData(sessionKey)).toEqual(owner);
  });
});
