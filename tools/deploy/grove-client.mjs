// A small HTTPS client for the compose drills: Grove behind HAProxy's TLS, trusted through the
// throwaway certificate the test made, with the owner's cookies kept between calls.
import { Agent, request } from 'undici';

/**
 * An owner (or anonymous visitor) talking to one Grove origin.
 * `call(method, path, body?)` → `{ status, headers, body }` (body parsed when JSON).
 */
export class GroveClient {
  /**
   * @param {string} origin e.g. https://localhost:18443
   * @param {string} ca the PEM certificate HAProxy presents
   */
  constructor(origin, ca) {
    this.origin = origin;
    this.dispatcher = new Agent({ connect: { ca }, keepAliveTimeout: 1_000 });
    /** @type {Map<string, string>} cookie name → value */
    this.cookies = new Map();
  }

  /** The Cookie header of this client's session (empty when signed out). */
  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /**
   * One request. JSON bodies are sent as JSON; a reply's cookies are kept.
   * @returns {Promise<{ status: number, headers: Record<string, string | string[]>, body: any }>}
   */
  async call(method, path, body) {
    const reply = await request(this.origin + path, {
      method,
      dispatcher: this.dispatcher,
      headers: {
        origin: this.origin,
        accept: 'application/json, text/html',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = reply.headers['set-cookie'];
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await reply.body.text();
    let parsed = text;
    if (String(reply.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: reply.statusCode, headers: reply.headers, body: parsed };
  }

  /** Like `call`, but throws unless the status is `expected`. */
  async expect(expected, method, path, body) {
    const reply = await this.call(method, path, body);
    if (reply.status !== expected)
      throw new Error(
        `${method} ${path}: ${reply.status} (expected ${expected}) ${JSON.stringify(reply.body).slice(0, 300)}`,
      );
    return reply.body;
  }

  close() {
    return this.dispatcher.close();
  }
}
