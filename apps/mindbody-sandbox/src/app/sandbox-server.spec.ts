import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SANDBOX_OPTIONS, MindbodySandbox } from './sandbox-server';

describe('Mindbody sandbox (Public API v6 shapes)', () => {
  let server: Server;
  let base: string;
  const headers = { 'Api-Key': DEFAULT_SANDBOX_OPTIONS.apiKey, SiteId: '-99', 'Content-Type': 'application/json' };

  beforeAll(async () => {
    server = await new MindbodySandbox({ ...DEFAULT_SANDBOX_OPTIONS, clientCount: 450 }).listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/public/v6`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const token = async () => {
    const reply = await fetch(`${base}/usertoken/issue`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ Username: DEFAULT_SANDBOX_OPTIONS.staffUsername, Password: DEFAULT_SANDBOX_OPTIONS.staffPassword }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as { AccessToken: string; Expires: string };
    expect(Date.parse(body.Expires)).toBeGreaterThan(Date.now());
    return body.AccessToken;
  };

  it('refuses wrong staff credentials with the Mindbody error shape', async () => {
    const reply = await fetch(`${base}/usertoken/issue`, { method: 'POST', headers, body: JSON.stringify({ Username: 'x', Password: 'y' }) });
    expect(reply.status).toBe(401);
    expect(await reply.json()).toEqual({ Error: { Message: 'Invalid credentials', Code: 'DeniedAccess' } });
  });

  it('requires the Api-Key header and a staff token', async () => {
    expect((await fetch(`${base}/client/clients`, { headers: { SiteId: '-99' } })).status).toBe(401);
    expect((await fetch(`${base}/client/clients`, { headers })).status).toBe(401);
  });

  it('pages through every client, 200 at most per page', async () => {
    const auth = { ...headers, Authorization: await token() };
    const ids = new Set<string>();
    for (let offset = 0; ; offset += 200) {
      const reply = await fetch(`${base}/client/clients?request.limit=200&request.offset=${offset}`, { headers: auth });
      const body = (await reply.json()) as { PaginationResponse: { TotalResults: number; PageSize: number }; Clients: { Id: string }[] };
      expect(body.PaginationResponse.TotalResults).toBe(450);
      body.Clients.forEach((client) => ids.add(client.Id));
      if (body.Clients.length < 200) break;
    }
    expect(ids.size).toBe(450);
    const tooBig = await fetch(`${base}/client/clients?request.limit=201`, { headers: auth });
    expect(tooBig.status).toBe(400);
  });

  it('filters by request.lastModifiedDate and seeds referred prospects', async () => {
    const auth = { ...headers, Authorization: await token() };
    const reply = await fetch(`${base}/client/clients?request.limit=200&request.lastModifiedDate=2026-01-01T07:00:00Z`, { headers: auth });
    const body = (await reply.json()) as { PaginationResponse: { TotalResults: number }; Clients: { IsProspect: boolean; ReferredBy: string | null }[] };
    expect(body.PaginationResponse.TotalResults).toBe(450 - 419);
    expect(body.Clients.some((client) => client.IsProspect && client.ReferredBy)).toBe(true);
  });
});
