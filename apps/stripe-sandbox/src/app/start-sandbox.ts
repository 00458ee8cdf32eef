import type { AddressInfo } from 'node:net';
import { StripeSandbox, type StripeSandboxOptions } from './stripe-sandbox';

/** `startStripeSandbox` settings: the sandbox's options plus where to listen. */
export interface StartStripeSandboxOptions extends Partial<StripeSandboxOptions> {
  /** Port, 0 = any free port (default 0). */
  port?: number;
  /** Interface (default 127.0.0.1). */
  host?: string;
}

/** A running sandbox: its address, the instance (store, webhooks, billing flows) and `close`. */
export interface RunningStripeSandbox {
  /** e.g. http://127.0.0.1:4020 — the SDK's `host`/`port`/`protocol` point here. */
  url: string;
  host: string;
  port: number;
  /** Base URL of the control API (`${url}/_sandbox`). */
  controlUrl: string;
  sandbox: StripeSandbox;
  /** Stops listening and abandons pending webhook retries. */
  close(): Promise<void>;
}

/**
 * Starts a Stripe sandbox in-process (tests do; `main.ts` runs it as a service).
 * @returns once it listens
 */
export async function startStripeSandbox(
  options: StartStripeSandboxOptions = {},
): Promise<RunningStripeSandbox> {
  const { port = 0, host = '127.0.0.1', ...sandboxOptions } = options;
  const sandbox = new StripeSandbox(sandboxOptions);
  const server = await sandbox.listen(port, host);
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    host,
    port: address.port,
    controlUrl: `${url}/_sandbox`,
    sandbox,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.webhooks.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
