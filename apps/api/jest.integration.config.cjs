/**
 * API integration tests (`*.integration-spec.ts`): the real AppModule on a real PostgreSQL.
 * globalSetup starts ONE embedded server per run (or uses DATABASE_URL), migrates a template
 * database once; each test file clones it (see test/test-database.ts).
 */
module.exports = {
  displayName: 'api-integration',
  ...require('../../tools/jest/preset.cjs'),
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // A file's first createTestApp in a fresh worker loads the whole AppModule: 30 s was short at load 14.
  testTimeout: 60000,
  // Two workers on CI's 2 cores: each file has its own cloned database and ephemeral ports, so files
  // run side by side (docs/decisions/tests-in-two-workers.md). A worker that has grown
  // past 2 GB after a file is replaced: one process running every file reached 7 GB (session 19).
  maxWorkers: 2,
  workerIdleMemoryLimit: '2GB',
};
