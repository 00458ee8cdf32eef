import { HttpResponse, apiError, http, server } from '@grove/web-testing';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api-client';
import { api, unwrap, unwrapDownload } from './api';

/** Every request the fake API saw, as 'METHOD /path?query'. */
function recordRequests(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
  });
  return seen;
}

describe('the generated API client (docs/architecture.md#the-api-contract)', () => {
  afterEach(() => server.events.removeAllListeners());

  it('refreshes an expired session once and retries the request', async () => {
    const seen = recordRequests();
    let signedIn = false;
    server.use(
      http.get('/members', ({ response }) =>
        signedIn
          ? response(200).json({ items: [], total: 0, page: 2, pageSize: 25 })
          : apiError(401, 'Unauthorized'),
      ),
      http.post('/auth/refresh', () => {
        signedIn = true;
        return new HttpResponse(null, { status: 200 });
      }),
    );
    const page = await unwrap(api.GET('/members', { params: { query: { page: 2 } } }));
    expect(page).toMatchObject({ items: [], total: 0 });
    expect(seen).toEqual([
      'GET /api/members?page=2',
      'POST /api/auth/refresh',
      'GET /api/members?page=2',
    ]);
  });

  it('does not refresh for a wrong password: the 401 is the answer', async () => {
    const seen = recordRequests();
    server.use(http.post('/auth/login', () => apiError(401, 'Invalid email or password')));
    const failure = await unwrap(
      api.POST('/auth/login', { body: { email: 'ana@example.com', password: 'wrong' } }),
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 401, message: 'Invalid email or password' });
    expect(seen).toEqual(['POST /api/auth/login']);
  });

  it("surfaces the server's message and per-field messages as an ApiError", async () => {
    let sent: unknown;
    server.use(
      http.post('/members', async ({ request }) => {
        sent = await request.json();
        return apiError(400, 'Please enter a valid name.', {
          memberName: 'Please enter a valid name.',
        });
      }),
    );
    const body = { memberName: "Zoë O'Brien-Ng", memberEmail: 'zoe@example.com' };
    const failure = await unwrap(api.POST('/members', { body } as never)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      message: 'Please enter a valid name.',
      fieldErrors: { memberName: 'Please enter a valid name.' },
    });
    expect(sent).toEqual(body);
  });

  it('says Grove cannot be reached when the network fails', async () => {
    server.use(http.get('/members', () => HttpResponse.error()));
    const failure = await unwrap(api.GET('/members')).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
  });

  it('downloads a file with the name the API gives it', async () => {
    server.use(
      http.get(
        '/members-csv/export',
        () =>
          new HttpResponse('Name,Email\r\n', {
            headers: {
              'Content-Type': 'text/csv',
              'Content-Disposition': 'attachment; filename="grove-members-2026-11-28.csv"',
            },
          }),
      ),
    );
    const { blob, fileName } = await unwrapDownload(
      api.GET('/members-csv/export', { parseAs: 'blob' }),
      'grove-members.csv',
    );
    expect(fileName).toBe('grove-members-2026-11-28.csv');
    expect(await blob.text()).toBe('Name,Email\r\n');
  });
});
