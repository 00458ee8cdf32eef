#!/usr/bin/env node
// Runs an embedded PostgreSQL for the process that spawned this one (`npm start`, see
// startDetachedPostgres in embedded-postgres.mjs). That parent spawns it detached, in a process
// group of its own, so a terminal's Ctrl+C (SIGINT to the whole foreground group) reaches the
// parent and the API but not PostgreSQL: the parent stops the API first and PostgreSQL last.
//
// argv[2]: JSON { dataDir, port, fast }. Over IPC it sends { ready: { postgresUrl, port, fresh,
// dataDir } } once the server accepts connections, or { failed: message }; it stops the server and
// exits on the message 'stop', or when the parent goes away (the IPC channel closes), also when
// that happens while the server is still starting.
import { startEmbeddedPostgres } from './embedded-postgres.mjs';

const { dataDir, port, fast } = JSON.parse(process.argv[2] ?? '{}');
const log = (line) => console.log(`[grove] ${line}`);

let server = null;
let stopRequested = false;
let stopping = false;
const stop = async () => {
  stopRequested = true;
  if (!server || stopping) return; // still starting: stopped as soon as it is up
  stopping = true;
  await server
    .stop()
    .catch((error) => log(`stopping PostgreSQL failed: ${error?.message ?? error}`));
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'stop') void stop();
});
process.on('disconnect', () => void stop());

try {
  server = await startEmbeddedPostgres({ dataDir, port, fast, log });
} catch (error) {
  process.send?.({ failed: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
if (stopRequested || !process.connected) {
  await stop();
} else {
  process.send({
    ready: {
      postgresUrl: server.url('postgres'),
      port: server.port,
      fresh: server.fresh,
      dataDir: server.dataDir,
    },
  });
}
