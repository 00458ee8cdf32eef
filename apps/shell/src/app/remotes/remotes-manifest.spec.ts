import { http as anyHttp, HttpResponse } from 'msw';
import { server } from '@grove/web-testing';
import { readRemotesManifest } from './remotes-manifest';

describe('readRemotesManifest', () => {
  it('reads /remotes.json once and maps it to registerRemotes pairs, unknown names left out', async () => {
    const requests: string[] = [];
    server.use(
      anyHttp.get('/remotes.json', ({ request }) => {
        requests.push(new URL(request.url).pathname);
        return HttpResponse.json({
          dashboard: 'https://cdn.example/dashboard/mf-manifest.json',
          marketing: '/remotes/marketing/mf-manifest.json',
          stranger: '/x.json',
        });
      }),
    );
    await expect(readRemotesManifest()).resolves.toEqual([
      { name: 'marketing', entry: '/remotes/marketing/mf-manifest.json' },
      { name: 'dashboard', entry: 'https://cdn.example/dashboard/mf-manifest.json' },
    ]);
    expect(requests).toEqual(['/remotes.json']);
  });

  it('fails loudly when the manifest is unavailable', async () => {
    server.use(anyHttp.get('/remotes.json', () => HttpResponse.json({}, { status: 503 })));
    await expect(readRemotesManifest()).rejects.toThrow('HTTP 503');
  });
});
