import { readRemotesManifest } from './remotes-manifest';

describe('readRemotesManifest', () => {
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    global.fetch = fetchMock as unknown as typeof fetch;
  });

  it('maps the manifest to registerRemotes pairs, bypassing the HTTP cache', async () => {
    fetchMock.mockResolvedValueOnce({
      ok: true,
      json: async () => ({
        dashboard: 'https://cdn.example/dashboard/mf-manifest.json',
        marketing: '/remotes/marketing/mf-manifest.json',
        stranger: '/x.json',
      }),
    });
    await expect(readRemotesManifest()).resolves.toEqual([
      { name: 'marketing', entry: '/remotes/marketing/mf-manifest.json' },
      { name: 'dashboard', entry: 'https://cdn.example/dashboard/mf-manifest.json' },
    ]);
    expect(fetchMock).toHaveBeenCalledWith('/remotes.json');
  });

  it('fails loudly when the manifest is unavailable', async () => {
    fetchMock.mockResolvedValueOnce({ ok: false, status: 503, json: async () => ({}) });
    await expect(readRemotesManifest()).rejects.toThrow('HTTP 503');
  });
});
