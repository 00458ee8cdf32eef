import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: raw body and the Stripe-Signature header. */
export interface ReceivedWebhook {
  body: string;
  signature: string;
  /** The event id and type read from the body. */
  id: string;
  type: string;
}

/** A local HTTP endpoint for webhook tests: records deliveries, answers `nextStatuses` first. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Statuses to answer next, in order (then 200). */
  nextStatuses: number[];
  close(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const nextStatuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as { id: string; type: string };
      received.push({
        body,
        signature: String(request.headers['stripe-signature']),
        id: event.id,
        type: event.type,
      });
      response.writeHead(nextStatuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    nextStatuses,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
