import { ApiError, apiFetch, applyFieldErrors, NETWORK_ERROR_MESSAGE } from './api-client';

type FakeReply = { status: number; body?: unknown };
const reply = ({ status, body }: FakeReply) => ({
  ok: status >= 200 && status < 300,
  status,
  text: async () => (body === undefined ? '' : JSON.stringify(body)),
});

describe('apiFetch', () => {
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    global.fetch = fetchMock as unknown as typeof fetch;
  });

  it('refreshes an expired session once and retries the request', async () => {
    fetchMock
      .mockResolvedValueOnce(
        reply({ status: 401, body: { statusCode: 401, message: 'Unauthorized' } }),
      )
      .mockResolvedValueOnce(reply({ status: 200 }))
      .mockResolvedValueOnce(reply({ status: 200, body: { items: [], total: 0 } }));
    await expect(apiFetch('/api/members', { query: { page: 2, search: '' } })).resolves.toEqual({
      items: [],
      total: 0,
    });
    expect(fetchMock.mock.calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
      'GET /api/members?page=2',
      'POST /api/auth/refresh',
      'GET /api/members?page=2',
    ]);
  });

  it("surfaces the server's message and field errors", async () => {
    fetchMock.mockResolvedValueOnce(
      reply({
        status: 400,
        body: {
          statusCode: 400,
          message: 'Not a valid name',
          fieldErrors: { memberName: 'Not a valid name' },
        },
      }),
    );
    const failure = await apiFetch('/api/members', { method: 'POST', body: {} }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 400,
      message: 'Not a valid name',
      fieldErrors: { memberName: 'Not a valid name' },
    });
    expect(fetchMock.mock.calls[0][1]).toMatchObject({
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it('does not try to refresh when signing in fails', async () => {
    fetchMock.mockResolvedValueOnce(
      reply({ status: 401, body: { message: 'Password or username does not match any user' } }),
    );
    await expect(apiFetch('/api/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 401,
      message: 'Password or username does not match any user',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reports an unreachable server as a network error', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiFetch('/api/members')).rejects.toMatchObject({
      status: 0,
      message: NETWORK_ERROR_MESSAGE,
    });
  });
});

describe('applyFieldErrors', () => {
  it("puts an ApiError's messages on the listed fields only", () => {
    const setError = jest.fn();
    const error = new ApiError(400, 'Not a valid name', {
      memberName: 'Not a valid name',
      other: 'x',
    });
    expect(applyFieldErrors(error, setError, ['memberName', 'memberEmail'])).toBe(true);
    expect(setError.mock.calls).toEqual([['memberName', { message: 'Not a valid name' }]]);
  });

  it('leaves other errors alone', () => {
    const setError = jest.fn();
    expect(applyFieldErrors(new Error('boom'), setError, ['memberName'])).toBe(false);
    expect(applyFieldErrors(new ApiError(500, 'boom'), setError, ['memberName'])).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
