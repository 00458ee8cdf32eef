import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One request a stub received. */
export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server standing in for an outside API (siteverify, Jira). */
export interface HttpStub {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on a free local port; `reply` decides each answer (status + JSON body).
 * @param reply called with the request (body read in full) and how many requests came before it
 */
export async function startHttpStub(
  reply: (request: StubRequest, index: number) => { status: number; body: unknown },
): Promise<HttpStub> {
  const requests: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = requests.length;
      requests.push(request);
      const { status, body } = reply(request, index);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A local SMTP server (smtp-server, no TLS, no auth) that parses every email it receives (mailparser). */
export interface SmtpStub {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL */
  url: string;
  emails: ParsedMail[];
  close(): Promise<void>;
}

/** Starts an SMTP server on a free local port. */
export async function startSmtpStub(): Promise<SmtpStub> {
  const emails: ParsedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          emails.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    emails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Polls `check` until it returns a value other than undefined/null/false (background jobs).
 * @throws Error after `timeoutMs`
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first "To" address of an email the SMTP stub received. */
export function recipient(mail: ParsedMail): string | undefined {
  return (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;
}
