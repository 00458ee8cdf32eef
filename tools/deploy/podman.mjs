// Podman and Podman's compose, as tools/deploy/compose-drills.test.mjs drives them: every call
// goes through the repository's containers.conf (runc, ulimits the CI machine allows), never /etc.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Podman's configuration for Grove's container tests (see the file for the measured reasons). */
export const CONTAINERS_CONF = path.join(root, 'tools/deploy/podman/containers.conf');

const run = promisify(execFile);
const env = (extra = {}) => ({
  ...process.env,
  CONTAINERS_CONF,
  BUILDAH_FORMAT: 'docker',
  ...extra,
});

/**
 * What the compose drills need from Debian, each as `[package, how it is found]`: the engine, its
 * compose, its OCI runtime, the base image's debootstrap, and the network stack every `RUN` of a
 * build and every compose network uses (netavark sets it up with iptables; aardvark-dns answers
 * the service names). `.ci/run` installs the same list.
 */
const COMPOSE_PACKAGES = [
  ['podman', 'command -v podman'],
  ['podman-compose', 'command -v podman-compose'],
  ['runc', 'command -v runc'],
  ['debootstrap', 'command -v debootstrap'],
  ['netavark', 'test -x /usr/lib/podman/netavark'],
  ['aardvark-dns', 'test -x /usr/lib/podman/aardvark-dns'],
  ['iptables', 'command -v iptables'],
  ['curl', 'command -v curl'],
];

/** The Debian packages of {@link COMPOSE_PACKAGES} this machine lacks (empty when it has them all). */
export function missingComposePackages() {
  return COMPOSE_PACKAGES.filter(
    ([, check]) => spawnSync('sh', ['-c', `${check} >/dev/null 2>&1`]).status !== 0,
  ).map(([name]) => name);
}

/**
 * `podman <args>` → its standard output (trimmed). Throws with podman's stderr on failure.
 * @param {string[]} args
 * @param {{ allowFailure?: boolean, timeoutMs?: number }} [options]
 */
export async function podman(args, options = {}) {
  try {
    const { stdout } = await run('podman', args, {
      env: env(),
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 600_000,
    });
    return stdout.trim();
  } catch (error) {
    if (options.allowFailure) return null;
    throw new Error(`podman ${args.join(' ')} failed: ${error.stderr || error.message}`);
  }
}

/**
 * Runs `podman-compose -p <project> -f docker-compose.yml [-f <override>…] <args>` in the repository, its output
 * going to `log` (a file descriptor) so a long build does not flood the test's output.
 * @param {string} project compose project name (container names `<project>_<service>_<n>`)
 * @param {string[]} args
 * @param {Record<string, string>} composeEnv the values docker-compose.yml interpolates
 * @param {number} log file descriptor for stdout and stderr
 * @param {string[]} [overrides] further compose files merged over docker-compose.yml (absolute paths)
 */
export function compose(project, args, composeEnv, log, overrides = []) {
  const result = spawnSync(
    'podman-compose',
    [
      '-p',
      project,
      '-f',
      path.join(root, 'docker-compose.yml'),
      ...overrides.flatMap((file) => ['-f', file]),
      ...args,
    ],
    { cwd: root, env: env(composeEnv), stdio: ['ignore', log, log], timeout: 900_000 },
  );
  if (result.status !== 0)
    throw new Error(`podman-compose ${args.join(' ')} exited ${result.status} (see the log)`);
}

/** Makes sure the one base image exists (tools/deploy/base-image.sh). */
export function ensureBaseImage() {
  execFileSync('bash', [path.join(root, 'tools/deploy/base-image.sh')], {
    env: env(),
    stdio: 'inherit',
  });
}

/**
 * Runs a container's own health check (`podman healthcheck run`): Podman schedules health checks
 * with systemd timers, and a machine without systemd (this one) runs none on its own.
 * @returns whether the check passed
 */
export async function healthy(container) {
  return (await podman(['healthcheck', 'run', container], { allowFailure: true })) !== null;
}

/**
 * Waits until every named container passes its health check.
 * @throws naming the containers still unhealthy after `timeoutMs`
 */
export async function waitHealthy(containers, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...containers];
  while (waiting.length > 0) {
    const checks = await Promise.all(waiting.map(healthy));
    waiting = waiting.filter((_, i) => !checks[i]);
    if (waiting.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`not healthy after ${timeoutMs / 1000} s: ${waiting.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** `psql` in the postgres container (its local socket) → rows as arrays of strings (unaligned, tab-separated). */
export async function sql(container, query) {
  const out = await podman([
    'exec',
    container,
    'psql',
    '-U',
    'grove',
    '-d',
    'grove',
    '-AtqF',
    '\t',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    query,
  ]);
  return out === '' ? [] : out.split('\n').map((line) => line.split('\t'));
}
