import type { LookupOptions } from 'node:dns';
import { createServer, type Server } from 'node:net';
import { databaseSocket, RememberingLookup, type Resolver } from './remembered-address';

/** A resolver a test steers: each call takes the next planned answer ('hang' never answers). */
function plannedResolver(plan: Array<string | 'hang' | NodeJS.ErrnoException>) {
  const asked: string[] = [];
  // Answers as dns.lookup does: every address with `all: true` (Node's connect asks so when it
  // may try IPv4 and IPv6 in turn), else one address and its family.
  const resolve: Resolver = (hostname, options, callback) => {
    asked.push(hostname);
    const next = plan.shift() ?? 'hang';
    if (next === 'hang') return;
    if (typeof next !== 'string') setImmediate(() => callback(next, ''));
    else if (options.all) setImmediate(() => callback(null, [{ address: next, family: 4 }]));
    else setImmediate(() => callback(null, next, 4));
  };
  return { resolve, asked };
}

function lookupOnce(lookup: RememberingLookup, host: string, options: LookupOptions = {}) {
  const started = Date.now();
  return new Promise<{ address: string; ms: number }>((resolve, reject) =>
    lookup.lookup(host, options, (error, address) =>
      error ? reject(error) : resolve({ address: String(address), ms: Date.now() - started }),
    ),
  );
}

const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code} db`), { code });

describe('RememberingLookup', () => {
  it('answers with the address resolved before when the resolver stops answering', async () => {
    const { resolve } = plannedResolver(['10.89.0.7', 'hang']);
    const lookup = new RememberingLookup(50, resolve);
    expect((await lookupOnce(lookup, 'postgres')).address).toBe('10.89.0.7');
    const second = await lookupOnce(lookup, 'postgres');
    expect(second.address).toBe('10.89.0.7');
    expect(second.ms).toBeGreaterThanOrEqual(45);
    expect(second.ms).toBeLessThan(1000);
  });

  it('takes a fresh answer over the remembered one (a moved database is found)', async () => {
    const { resolve } = plannedResolver(['10.89.0.7', '10.89.0.12', 'hang']);
    const lookup = new RememberingLookup(50, resolve);
    await lookupOnce(lookup, 'postgres');
    expect((await lookupOnce(lookup, 'postgres')).address).toBe('10.89.0.12');
    expect((await lookupOnce(lookup, 'postgres')).address).toBe('10.89.0.12');
  });

  it('stands in for a temporary failure, never for "no such name"', async () => {
    const { resolve } = plannedResolver([
      '10.89.0.7',
      dnsError('EAI_AGAIN'),
      dnsError('ENOTFOUND'),
    ]);
    const lookup = new RememberingLookup(5_000, resolve);
    await lookupOnce(lookup, 'postgres');
    expect((await lookupOnce(lookup, 'postgres')).address).toBe('10.89.0.7');
    await expect(lookupOnce(lookup, 'postgres')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('waits for the resolver when the name was never resolved, and remembers per name and form', async () => {
    const { resolve } = plannedResolver(['10.89.0.7', dnsError('EAI_AGAIN')]);
    const lookup = new RememberingLookup(10, resolve);
    await lookupOnce(lookup, 'postgres');
    await expect(lookupOnce(lookup, 'postgres', { all: true })).rejects.toMatchObject({
      code: 'EAI_AGAIN',
    });
  });
});

describe('databaseSocket', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function connectTo(socketLookup: RememberingLookup, host: string) {
    const started = Date.now();
    const socket = databaseSocket(socketLookup);
    return new Promise<number>((resolve, reject) => {
      socket.once('connect', () => {
        socket.destroy();
        resolve(Date.now() - started);
      });
      socket.once('error', reject);
      // node-postgres' call: `stream.connect(port, host)`.
      socket.connect(port, host);
    });
  }

  it("connects pg's way (port, host) through the lookup, also while the resolver is silent", async () => {
    const { resolve, asked } = plannedResolver(['127.0.0.1', 'hang']);
    const lookup = new RememberingLookup(100, resolve);
    await connectTo(lookup, 'db.internal');
    const ms = await connectTo(lookup, 'db.internal');
    expect(asked).toEqual(['db.internal', 'db.internal']);
    expect(ms).toBeLessThan(2_000);
  });
});
