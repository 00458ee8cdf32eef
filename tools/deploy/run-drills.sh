#!/usr/bin/env bash
# `npm run test:compose`: the compose drills, then the backup drills (docs/tests-and-benchmarks.md).
# Under CI a failed compose run is run once more, as Playwright retries a failed journey once
# (apps/e2e/playwright.config.ts `retries`): the first failure stays in the log above a marked
# line, and a second failure fails the run. Why, and the flakes it covers while they are open:
# docs/decisions/compose-in-tests.md "Flakes seen in CI (open)".
set -euo pipefail
cd "$(dirname "$0")/../.."
drills() { node --test --test-timeout=1500000 tools/deploy/compose-drills.test.mjs; }
if ! drills; then
  if [ -z "${CI:-}" ]; then exit 1; fi
  echo "test:compose: THE COMPOSE DRILLS FAILED (above); CI runs them once more"
  drills
fi
node --test --test-timeout=1500000 tools/deploy/backup-drills.test.mjs
