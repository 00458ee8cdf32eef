// The API as a real separate process (`node dist/apps/api/main.js`), for integration tests of
// several instances.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { freePort, startDaemon, type Daemon } from './local-daemon';
import { TEST_APP_ENV } from './test-app';

const workspaceRoot = path.resolve(__dirname, '../../..');

/**
 * Builds the API bundle with Nx (a cache hit, a few seconds, when nothing changed), so the
 * processes run the code under test rather than an old build.
 */
export function buildApi(): void {
  execFileSync('npx', ['nx', 'run', 'api:build', '--outputStyle=static'], {
    cwd: workspaceRoot,
    stdio: 'ignore',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
}

/** An API process listening on 127.0.0.1:`port`. */
export interface ApiProcess extends Daemon {
  port: number;
}

/**
 * Starts `node dist/apps/api/main.js` (run {@link buildApi} first) on a free port with
 * `TEST_APP_ENV` + `env` and nothing else of this process's environment but PATH and HOME.
 * @param env at least DATABASE_URL
 * @throws Error with the API's stderr when it exits or does not listen within 90 s
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const daemon = await startDaemon(
    'API',
    process.execPath,
    [path.join(workspaceRoot, 'dist/apps/api/main.js')],
    port,
    {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        ...TEST_APP_ENV,
        ...env,
        PORT: String(port),
      },
      startSeconds: 90,
    },
  );
  return { port, stop: () => daemon.stop(), kill: () => daemon.kill() };
}
