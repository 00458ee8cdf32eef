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
  testTimeout: 30000,
};
