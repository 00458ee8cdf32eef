// Helpers of integration tests that run a real server program (HAProxy, redis-server) as a child.
import { spawn } from 'node:child_process';
import net from 'node:net';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
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
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A server program started by {@link startDaemon}. */
export interface Daemon {
  /** Stops it (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL: no shutdown hook runs, as in a crash) and waits until it has exited. */
  kill(): Promise<void>;
}

/**
 * Runs `command args` in the foreground as a child process and waits until 127.0.0.1:`port`
 * accepts connections.
 * @param name for error messages
 * @param options.env the child's whole environment (default: this process's)
 * @param options.startSeconds how long it may take to listen (default 10 s)
 * @throws Error with the program's stderr when it exits first, or when the port stays closed too long
 */
export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  port: number,
  options: { env?: NodeJS.ProcessEnv; startSeconds?: number } = {},
): Promise<Daemon> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: options.env ?? process.env,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${stderr}`)));
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([listening(port, Date.now() + (options.startSeconds ?? 10) * 1000), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await gone;
  };
  return { stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

/** A running redis-server. */
export interface RunningRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Stops the server (its data is kept in memory only and goes with it). */
  stop(): Promise<void>;
}

/**
 * Starts Debian's `redis-server` (`REDIS_SERVER_PATH`; `.ci/run` installs it when missing) on a
 * free local port, without persistence.
 */
export async function startRedisServer(): Promise<RunningRedis> {
  const port = await freePort();
  const daemon = await startDaemon(
    'redis-server',
    process.env['REDIS_SERVER_PATH'] ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    port,
  );
  return { url: `redis://127.0.0.1:${port}`, stop: () => daemon.stop() };
}
