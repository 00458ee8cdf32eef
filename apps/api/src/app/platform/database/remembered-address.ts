import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Socket } from 'node:net';

/**
 * How long a lookup of the database's host name may take before the address that name had last
 * time is used instead (ms). A healthy resolver answers in milliseconds; one that drops a query
 * costs the C library's resolver timeout (`options timeout:`, 5 s by default), which is as long
 * as the whole connect budget (DATABASE_CONNECT_TIMEOUT_MS). Measured in
 * docs/decisions/database-address-remembered.md.
 */
export const LOOKUP_PATIENCE_MS = 1000;

/** What `dns.lookup` answers: one address and its family, or every address (`all: true`). */
type Resolved = { address: string | LookupAddress[]; family?: number };

/** `dns.lookup`'s callback, as `net.Socket#connect`'s `lookup` option calls it. */
type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `dns.lookup`-shaped resolver (the real one, or a test's). */
export type Resolver = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** Resolver errors that say "try again", not "no such name": the remembered address may stand in. */
const TEMPORARY_FAILURES = new Set(['EAI_AGAIN', 'ETIMEOUT', 'ESERVFAIL']);

/**
 * A `dns.lookup` for the database's host that never waits on a slow resolver when it already
 * knows an answer: each lookup asks `resolve`, and when that takes longer than `patienceMs` (or
 * fails temporarily, `EAI_AGAIN`) and the same name was resolved before, it answers with that
 * earlier address. A fresh answer, even a late one, replaces the remembered one; a definite
 * "no such name" (`ENOTFOUND`) is passed on, never hidden.
 *
 * Why: a container network's resolver can drop queries for seconds while it reloads (aardvark-dns
 * before 1.11 on every container start or stop, containers/aardvark-dns#389; Kubernetes' conntrack
 * race), and every new pooled connection looks the host up again, so a request that needed a new
 * connection then failed with the connect timeout (503) although PostgreSQL was up.
 */
export class RememberingLookup {
  private readonly remembered = new Map<string, Resolved>();

  /**
   * @param patienceMs how long to wait for `resolve` before a remembered address answers (ms)
   * @param resolve the resolver asked every time (`dns.lookup`)
   */
  constructor(
    private readonly patienceMs = LOOKUP_PATIENCE_MS,
    private readonly resolve: Resolver = dnsLookup as unknown as Resolver,
  ) {}

  /** `net.Socket#connect`'s `lookup` option (`dns.lookup`'s signature). */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const key = `${hostname} ${options.family ?? 0} ${options.all ? 'all' : 'one'}`;
    const known = this.remembered.get(key);
    let answered = false;
    const answer = (error: NodeJS.ErrnoException | null, resolved?: Resolved) => {
      if (answered) return;
      answered = true;
      if (error) callback(error, '');
      else if (resolved) callback(null, resolved.address, resolved.family);
    };
    const patience = known ? setTimeout(() => answer(null, known), this.patienceMs) : undefined;
    patience?.unref();
    this.resolve(hostname, options, (error, address, family) => {
      clearTimeout(patience);
      if (!error) {
        const fresh = { address, family };
        this.remembered.set(key, fresh);
        answer(null, fresh);
      } else if (known && TEMPORARY_FAILURES.has(error.code ?? '')) answer(null, known);
      else answer(error);
    });
  };
}

/** The lookup every pool of the API shares (one memory per process). */
const sharedLookup = new RememberingLookup();

/**
 * node-postgres' `stream` option (pg 8 `Connection`: a function called once per connection):
 * a TCP socket whose `connect(port, host)` resolves `host` through `lookup`
 * ({@link RememberingLookup}). A Unix socket path (`connect(path)`) connects as usual.
 * @param lookup the lookup to use (the process's shared one by default)
 */
export function databaseSocket(lookup: RememberingLookup = sharedLookup): Socket {
  const socket = new Socket();
  const connect = socket.connect.bind(socket) as (...args: unknown[]) => Socket;
  // pg calls `stream.connect(port, host)` (lib/connection.js); Node's positional form has no
  // `lookup`, so the call is turned into the options form.
  socket.connect = ((...args: unknown[]) => {
    const [port, host] = args;
    if (args.length === 2 && typeof host === 'string')
      return connect({ port: Number(port), host, lookup: lookup.lookup });
    return connect(...args);
  }) as Socket['connect'];
  return socket;
}
