// A real HAProxy (Debian's `haproxy` package; `.ci/run` installs it when missing) in front of
// API instances listening on local ports, for integration tests of several instances.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A running HAProxy. */
export interface RunningHaproxy {
  /** `http://127.0.0.1:<port>`: the proxy's front end. */
  url: string;
  /** Stops HAProxy and removes its configuration folder. */
  close(): Promise<void>;
}

/** Header naming the backend server that answered (set by the proxy), or picking one (sent by a test). */
export const INSTANCE_HEADER = 'x-grove-instance';

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port: number, deadline: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`HAProxy did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts HAProxy (`HAPROXY_PATH`, default `haproxy` on PATH) in the foreground with one HTTP
 * front end on a free port that balances round robin over `servers`, adds `X-Forwarded-For`
 * (`option forwardfor`, as a production proxy would; run the API with TRUST_PROXY) and names the
 * server that answered in the `X-Grove-Instance` reply header. A request carrying
 * `X-Grove-Instance: <name>` goes to that server.
 * @param servers name (letters) and local port of each API instance
 * @throws Error when HAProxy exits or does not listen within 10 s
 */
export async function startHaproxy(servers: { name: string; port: number }[]): Promise<RunningHaproxy> {
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
    ...servers.map(({ name }) => `  use-server ${name} if { req.hdr(${INSTANCE_HEADER}) -m str ${name} }`),
    ...servers.map(({ name, port: serverPort }) => `  server ${name} 127.0.0.1:${serverPort}`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const child = spawn(process.env['HAPROXY_PATH'] ?? 'haproxy', ['-db', '-f', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`HAProxy exited (${code}): ${stderr}`)));
  });
  exited.catch(() => undefined);
  await Promise.race([listening(port, Date.now() + 10_000), exited]);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
