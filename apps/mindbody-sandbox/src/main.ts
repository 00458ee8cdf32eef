// Runs the Mindbody sandbox: `node dist/apps/mindbody-sandbox/main.js` (PORT, default 4010;
// MINDBODY_SANDBOX_CLIENTS, default 2500). The staff login is in README.md.
import { DEFAULT_SANDBOX_OPTIONS, MindbodySandbox } from './app/sandbox-server';

const port = Number(process.env.PORT ?? 4010);
const clientCount = Number(process.env.MINDBODY_SANDBOX_CLIENTS ?? DEFAULT_SANDBOX_OPTIONS.clientCount);
const sandbox = new MindbodySandbox({ ...DEFAULT_SANDBOX_OPTIONS, clientCount });
void sandbox.listen(port).then(() => {
  console.log(`Mindbody sandbox (site ${sandbox.options.siteId}, ${sandbox.clients.length} clients) on http://127.0.0.1:${port}/public/v6`);
});
