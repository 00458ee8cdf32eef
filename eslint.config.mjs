// ESLint flat config: TypeScript rules everywhere, React hooks rules in the web apps and libs,
// and Nx module boundaries (docs/architecture.md#shape): a remote never imports another remote, web never
// imports API code, everything may import scope:shared.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/.nx',
      '**/tmp',
      '**/coverage',
      '**/test-results',
      '**/playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:shell', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:marketing', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:integrations', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:referral', onlyDependOnLibsWithTags: ['scope:shared'] },
            {
              sourceTag: 'scope:api',
              onlyDependOnLibsWithTags: ['scope:api', 'scope:mindbody', 'scope:shared'],
            },
            {
              sourceTag: 'scope:mindbody-sandbox',
              onlyDependOnLibsWithTags: [
                'scope:mindbody-sandbox',
                'scope:mindbody',
                'scope:shared',
              ],
            },
            {
              sourceTag: 'scope:mindbody',
              onlyDependOnLibsWithTags: ['scope:mindbody', 'scope:shared'],
            },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:ui', notDependOnLibsWithTags: ['type:data-access'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: [
      'apps/{shell,marketing,dashboard,integrations,referral}/**/*.{ts,tsx}',
      'libs/web/**/*.{ts,tsx}',
    ],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // One way to the database (issue 13): SQL and TypeORM repositories only in a module's
    // `*.repository.ts` or in `database/`; services call repository methods.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repository.ts',
      'apps/api/src/app/database/**',
      'apps/api/src/**/*.spec.ts',
      'apps/api/src/**/*.integration-spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(query|createQueryBuilder|getRepository)$/]',
          message:
            'Database access belongs in a *.repository.ts of the module that owns the table (or in database/): call that repository instead.',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
