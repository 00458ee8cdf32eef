// Polling a background run (links for everyone, 'Email all links') until it ends.
import type TestAgent from 'supertest/lib/agent';

/**
 * GETs `path` (a run's state, `{ status, … }`) every 100 ms until its status is no longer
 * 'running'; returns that state.
 * @throws Error with the last state when still running after `timeoutMs`
 */
export async function runUntilDone<T extends { status: string }>(
  agent: TestAgent,
  path: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await agent.get(path).expect(200)).body as T;
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`run still going: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
