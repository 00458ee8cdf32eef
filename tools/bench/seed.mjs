// Data the benchmarks make on a fresh Grove through its public API (a sign-up's emailed link is
// read from Grove's database or the bench's mailbox).
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
// The shared sign-up link reader is TypeScript (libs/testing/smtp): SWC compiles it on require.
require('../scripts/register-ts.cjs');

/**
 * Signs an owner up as a person does (docs/product.md#signup): the form (`POST /api/auth/signup`,
 * 202), then the emailed link (`POST /api/auth/signup/confirm`), and returns the session as a
 * `cookie` header value, for calls made as that owner.
 * @param {string} base Grove's origin, e.g. `http://localhost:3000`
 * @param {object} owner fields over the default owner (businessName, email, …)
 * @param {(email: string) => Promise<string>} signupToken reads the token of the link emailed to
 *   the address: {@link databaseSignupTokens} or a mailbox's `signupToken` ({@link startMailbox})
 * @returns {Promise<string>}
 */
export async function signUpOwner(base, owner, signupToken) {
  const body = {
    businessName: 'Bench Gym',
    firstName: 'Bench',
    lastName: 'Owner',
    email: 'bench@grove.local',
    phoneNumber: '0412 345 678',
    website: 'bench.example.com',
    password: 'bench password',
    ...owner,
  };
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (signup.status !== 202)
    throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  const confirmed = await fetch(`${base}/api/auth/signup/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: await signupToken(body.email) }),
  });
  if (!confirmed.ok)
    throw new Error(`signup link refused: ${confirmed.status} ${await confirmed.text()}`);
  return confirmed.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Reads sign-up links from Grove's database: the link emailed to the address, from its `mail.send`
 * job (kept whether or not it was delivered), whose body is sealed under Grove's JWT_SECRET
 * (`queuedSignupLink` of `@grove/testing-smtp`, the reader the API's tests and the journeys use).
 * @param {(text: string, params: unknown[]) => Promise<{ rows: object[] }>} sql a `pg` query
 * @param {string} jwtSecret the JWT_SECRET the bench started Grove with
 * @returns {(email: string) => Promise<string>} the token, waiting up to 10 s for the email
 */
export function databaseSignupTokens(sql, jwtSecret) {
  const { queuedSignupLink } = require(
    path.join(root, 'libs/testing/smtp/src/lib/queued-signup-link.ts'),
  );
  return async (email) => (await queuedSignupLink({ query: sql }, email, jwtSecret)).token;
}

/**
 * Adds a member as the owner of `cookie` and gives them a referral link.
 * @returns {Promise<{ memberId: string, code: string }>}
 */
export async function memberWithLink(base, cookie, member = {}) {
  const headers = { cookie, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/members`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      memberName: 'Referring Member',
      memberEmail: 'referrer@bench.example.com',
      membershipPriceCents: 9900,
      discountCents: 1000,
      ...member,
    }),
  });
  if (!created.ok) throw new Error(`member failed: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const link = await fetch(`${base}/api/members/${id}/referral-link`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (!link.ok) throw new Error(`link failed: ${link.status} ${await link.text()}`);
  return { memberId: id, code: (await link.json()).code };
}

/**
 * A local SMTP server (smtp-server) that keeps what Grove sends, for pages reached from an email
 * (the member page's magic link). Point Grove's SMTP_URL at `url`.
 * @returns {Promise<{ url: string, magicLink: (to: string) => Promise<string>, close: () => Promise<void> }>}
 *   `magicLink(to)` waits (up to 60 s) for the next email to `to` with a member page magic link
 *   and returns its path, `/member#token=…`
 */
export async function startMailbox() {
  const { SMTPServer } = await import('smtp-server');
  const { simpleParser } = await import('mailparser');
  const received = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error) => callback(error),
      );
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address();
  const taken = new Set();
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The token of the newest sign-up link emailed to `to` (docs/product.md#signup). */
    async signupToken(to) {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
        const token = (entry) =>
          /\/signup\/confirm#token=([A-Za-z0-9_-]{43})/.exec(entry.text ?? '')?.[1];
        const mail = received.findLast(
          (entry) => entry.to?.value?.[0]?.address === to && token(entry),
        );
        if (mail) return token(mail);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no sign-up link emailed to ${to}`);
    },
    async magicLink(to) {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
        // Other emails to the member (e.g. "… joined with your link") carry no magic link.
        const token = (entry) => /\/member#token=([A-Za-z0-9_-]{43})/.exec(entry.text ?? '')?.[1];
        const mail = received.find(
          (entry) => !taken.has(entry) && entry.to?.value?.[0]?.address === to && token(entry),
        );
        if (mail) {
          taken.add(mail);
          return `/member#token=${token(mail)}`;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no magic link emailed to ${to}`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A member page link as the member gets it: asks for one (`POST /api/member/magic-link`, the
 * member page's 'Send me a new link') and reads it from `mailbox`.
 * @returns {Promise<string>} `/member#token=…` (works once)
 */
export async function memberPageLink(base, mailbox, email) {
  const asked = await fetch(`${base}/api/member/magic-link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email }),
  });
  if (!asked.ok) throw new Error(`magic link failed: ${asked.status} ${await asked.text()}`);
  return mailbox.magicLink(email);
}
