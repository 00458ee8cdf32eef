import fs from 'node:fs';

/** Removes the throwaway state folder (embedded database, token secret) of this e2e run. */
export default function globalTeardown() {
  const dir = process.env.GROVE_E2E_STATE;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
