import { createHash } from 'node:crypto';
import { SIGNUP_CONFIRM_PATH } from '@grove/contracts';
import { openEmailBody } from '@grove/sealed-secret';

/**
 * A database to read from: a TypeORM `DataSource` (rows), a `pg` client or pool (`{ rows }`), or
 * any function-shaped adapter returning either (e.g. psql in a container).
 */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** The sign-up link {@link queuedSignupLink} found. */
export interface QueuedSignupLink {
  /** `<origin>/signup/confirm#token=<token>` as the email has it. */
  link: string;
  token: string;
}

const LINK = new RegExp(
  `(\\S+${SIGNUP_CONFIRM_PATH.replaceAll('/', '\\/')}#token=([A-Za-z0-9_-]+))`,
);

async function rowsOf<T>(database: Queryable, text: string, values: unknown[]): Promise<T[]> {
  const result: unknown = await database.query(text, values);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/**
 * The sign-up link Grove emailed to `email` (docs/product.md#signup), read from the email as Grove
 * queued it (its `mail.send` job, kept by pg-boss whether delivered or not), for tests, benches and
 * drills whose Grove has no mail server they can read. The body of that job is sealed under the
 * API's JWT_SECRET (`secret` emails, docs/decisions/signup-by-email.md), so the reader must know
 * the JWT_SECRET it started Grove with. Of the links emailed to the address, the one whose
 * SHA-256 is the address's unused pending sign-up's (concurrent sign-ups each replace the
 * address's link, and the last to commit wins, which need not be the newest email); when none
 * works any more, the newest. Waits for the email up to `timeoutMs` (10 s).
 * @throws Error when no sign-up link was emailed to it in that time
 */
export async function queuedSignupLink(
  database: Queryable,
  email: string,
  jwtSecret: string,
  timeoutMs = 10_000,
): Promise<QueuedSignupLink> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const jobs = await rowsOf<{ sealed: string }>(
      database,
      `SELECT data->>'sealedBody' AS sealed FROM pgboss.job
        WHERE name = 'mail.send' AND lower(data->>'to') = lower($1) AND data ? 'sealedBody'
        ORDER BY created_on DESC`,
      [email],
    );
    const links = jobs
      .map(({ sealed }) => LINK.exec(openEmailBody(jwtSecret, sealed).text))
      .filter((match) => match !== null)
      .map(([, link = '', token = '']) => ({ link, token }));
    if (links.length > 0) {
      const pending = await rowsOf<{ token_hash: string }>(
        database,
        `SELECT token_hash FROM pending_signups WHERE used_at IS NULL AND lower(email) = lower($1)`,
        [email],
      );
      const working = new Set(pending.map((row) => row.token_hash));
      const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
      return links.find(({ token }) => working.has(sha256(token))) ?? links[0];
    }
    if (Date.now() > deadline) throw new Error(`no sign-up link was emailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
