import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { seedClients, type SandboxClient } from './seed';

/** Settings of a sandbox instance; the defaults are the ones the README gives. */
export interface SandboxOptions {
  siteId: string;
  apiKey: string;
  staffUsername: string;
  staffPassword: string;
  /** Seeded clients, 1 to 50,000. */
  clientCount: number;
}

export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  siteId: '-99',
  apiKey: 'grove-sandbox-key',
  staffUsername: 'owner@sandbox.example.com',
  staffPassword: 'sandbox-pass-1234',
  clientCount: 2_500,
};

const BASE = '/public/v6';
/** Mindbody's page-size cap for client/clients. */
export const MAX_PAGE_SIZE = 200;
const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

type Reply = { status: number; body: unknown };
const error = (status: number, Code: string, Message: string): Reply => ({ status, body: { Error: { Message, Code } } });

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A stand-in for the Mindbody Public API v6 (DESIGN.md §6) on seeded data: the same paths,
 * headers (`Api-Key`, `SiteId`, `Authorization`), JSON field names, paging and error shape
 * (`{"Error":{"Message","Code"}}`). This first slice answers `POST /usertoken/issue` and
 * `GET /client/clients`; contracts, autopays, webhooks and fault switches come with issue 4.
 */
export class MindbodySandbox {
  readonly clients: SandboxClient[];
  private readonly tokens = new Map<string, number>();

  constructor(readonly options: SandboxOptions = DEFAULT_SANDBOX_OPTIONS) {
    this.clients = seedClients(Math.min(Math.max(options.clientCount, 1), 50_000));
  }

  /** Starts listening on `port` (0 = any free port) on 127.0.0.1; resolves with the server. */
  listen(port = 0): Promise<Server> {
    const server = createServer((request, response) => {
      void this.handle(request).then((reply) => send(response, reply));
    });
    return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
  }

  /** Routes one request; exported for tests through `listen`. */
  async handle(request: IncomingMessage): Promise<Reply> {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    if (url.pathname === '/health') return { status: 200, body: { status: 'ok' } };
    if (!url.pathname.startsWith(BASE)) return error(404, 'NotFound', 'Not found');
    if (request.headers['api-key'] !== this.options.apiKey) return error(401, 'DeniedAccess', 'Invalid Api-Key');
    if (request.headers['siteid'] !== this.options.siteId) return error(400, 'InvalidSiteId', 'Invalid SiteId');
    const route = `${request.method} ${url.pathname.slice(BASE.length).toLowerCase()}`;
    if (route === 'POST /usertoken/issue') return this.issueToken(await readJson(request));
    if (!this.authorized(request)) return error(401, 'DeniedAccess', 'Invalid or expired staff token');
    if (route === 'GET /client/clients') return this.listClients(url.searchParams);
    return error(404, 'NotFound', `No route for ${route}`);
  }

  private issueToken(body: Record<string, unknown> | null): Reply {
    if (body?.Username !== this.options.staffUsername || body?.Password !== this.options.staffPassword) {
      return error(401, 'DeniedAccess', 'Invalid credentials');
    }
    const token = randomBytes(24).toString('hex');
    const expires = Date.now() + TOKEN_TTL_SECONDS * 1000;
    this.tokens.set(token, expires);
    return {
      status: 200,
      body: {
        TokenType: 'Bearer',
        AccessToken: token,
        Expires: new Date(expires).toISOString(),
        User: { Id: 1, FirstName: 'Sandbox', LastName: 'Owner', Type: 'Owner' },
      },
    };
  }

  private authorized(request: IncomingMessage): boolean {
    const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const expires = this.tokens.get(token);
    return expires !== undefined && expires > Date.now();
  }

  private listClients(params: URLSearchParams): Reply {
    const limit = Number(params.get('request.limit') ?? 100);
    const offset = Number(params.get('request.offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE || !Number.isInteger(offset) || offset < 0) {
      return error(400, 'InvalidParameter', `request.limit must be 1-${MAX_PAGE_SIZE} and request.offset ≥ 0`);
    }
    const since = params.get('request.lastModifiedDate');
    const sinceTime = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
    if (Number.isNaN(sinceTime)) return error(400, 'InvalidParameter', 'request.lastModifiedDate is not a date');
    const matching = this.clients.filter((client) => Date.parse(client.LastModifiedDateTime) >= sinceTime);
    const page = matching.slice(offset, offset + limit);
    return {
      status: 200,
      body: {
        PaginationResponse: { RequestedLimit: limit, RequestedOffset: offset, PageSize: page.length, TotalResults: matching.length },
        Clients: page,
      },
    };
  }
}

function send(response: ServerResponse, { status, body }: Reply) {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
