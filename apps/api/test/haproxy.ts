// A real HAProxy (Debian's `haproxy` package; `.ci/run` installs it when missing) in front of
// API instances listening on local ports, for integration tests of several instances.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startDaemon } from './local-daemon';

/** A running HAProxy. */
export interface RunningHaproxy {
  /** `http://127.0.0.1:<port>`: the proxy's front end. */
  url: string;
  /** Stops HAProxy and removes its configuration folder. */
  close(): Promise<void>;
}

/** Header naming the backend server that answered (set by the proxy), or picking one (sent by a test). */
export const INSTANCE_HEADER = 'x-grove-instance';

/**
 * Starts HAProxy (`HAPROXY_PATH`, default `haproxy` on PATH) in the foreground with one HTTP
 * front end on a free port that balances round robin over `servers`, adds `X-Forwarded-For`
 * (`option forwardfor`, as a production proxy would; run the API with TRUST_PROXY) and names the
 * server that answered in the `X-Grove-Instance` reply header. A request carrying
 * `X-Grove-Instance: <name>` goes to that server.
 * @param servers name (letters) and local port of each API instance
 * @throws Error when HAProxy exits or does not listen within 10 s
 */
export async function startHaproxy(
  servers: { name: string; port: number }[],
): Promise<RunningHaproxy> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grove-haproxy-'));
  const config = [
    'global',
    '  maxconn 512',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    'frontend grove',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend api',
    'backend api',
    '  balance roundrobin',
    `  http-response set-header ${INSTANCE_HEADER} %s`,
    ...servers.map(
      ({ name }) => `  use-server ${name} if { req.hdr(${INSTANCE_HEADER}) -m str ${name} }`,
    ),
    ...servers.map(({ name, port: serverPort }) => `  server ${name} 127.0.0.1:${serverPort}`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const daemon = await startDaemon(
    'HAProxy',
    process.env['HAPROXY_PATH'] ?? 'haproxy',
    ['-db', '-f', file],
    port,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
