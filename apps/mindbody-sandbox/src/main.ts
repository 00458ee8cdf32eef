// Runs the Mindbody sandbox: `node dist/apps/mindbody-sandbox/main.js`. Settings (all optional):
// PORT (4010), HOST (127.0.0.1), MINDBODY_SANDBOX_CLIENTS (2500, at most 50000),
// MINDBODY_SANDBOX_SEED (4), MINDBODY_SANDBOX_FAULTS (JSON array of fault rules, e.g.
// '[{"path":"/client/clients","page":3,"status":500,"times":2}]'), MINDBODY_SANDBOX_API_KEY (the
// developer key it takes; default grove-sandbox-key). The staff login is in docs/mindbody.md.
import { DEFAULT_SANDBOX_OPTIONS } from './app/sandbox-server';
import { startMindbodySandbox } from './app/start-sandbox';
import type { FaultRule } from './app/fault-switches';

function faultsFromEnv(text: string | undefined): FaultRule[] {
  if (!text) return [];
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value))
    throw new TypeError('MINDBODY_SANDBOX_FAULTS must be a JSON array of fault rules');
  return value as FaultRule[];
}

async function main() {
  const sandbox = await startMindbodySandbox({
    port: Number(process.env.PORT ?? 4010),
    host: process.env.HOST ?? '127.0.0.1',
    clientCount: Number(
      process.env.MINDBODY_SANDBOX_CLIENTS ?? DEFAULT_SANDBOX_OPTIONS.clientCount,
    ),
    seed: Number(process.env.MINDBODY_SANDBOX_SEED ?? DEFAULT_SANDBOX_OPTIONS.seed),
    faults: faultsFromEnv(process.env.MINDBODY_SANDBOX_FAULTS),
    apiKey: process.env.MINDBODY_SANDBOX_API_KEY || DEFAULT_SANDBOX_OPTIONS.apiKey,
  });
  const count = sandbox.control.clients().length;
  console.log(
    `Mindbody sandbox (site ${sandbox.options.siteId}, ${count} clients; site -98 not activated) on ${sandbox.url}; webhooks ${sandbox.webhooksUrl}; control ${sandbox.controlUrl}`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
