/**
 * The environment of a Grove the journeys run against (`tools/scripts/start.mjs --no-build`):
 * on `port`, its state (embedded database included) in `stateDir`, removed when it stops, any
 * free database port, quiet logs, a small Mindbody sandbox (300 clients unless
 * MINDBODY_SANDBOX_CLIENTS says otherwise).
 */
export function groveServerEnv(port: number, stateDir: string): Record<string, string> {
  return {
    PORT: String(port),
    GROVE_STATE_DIR: stateDir,
    GROVE_DB_PORT: '0',
    GROVE_EPHEMERAL_STATE: 'true',
    LOG_LEVEL: 'warn',
    MINDBODY_SANDBOX_CLIENTS: process.env.MINDBODY_SANDBOX_CLIENTS ?? '300',
  };
}
