// ESLint flat config: TypeScript rules everywhere, React hooks rules in the web apps and libs,
// and Nx module boundaries (docs/architecture.md#shape): a remote never imports another remote, web never
// imports API code, everything may import scope:shared, only the web apps and libs/web import scope:web; inside a web app a feature folder never
// imports another feature folder (shared pieces live in the app's src/components or libs/web).
import path from 'node:path';
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { apiAreaOrder, coreTableWrites } from './tools/eslint/api-areas.mjs';

/**
 * `grove/no-cross-feature-imports`: a file in `apps/<app>/src/features/<x>/` may not import (or
 * re-export, or lazily `import()`) anything under a sibling `src/features/<y>/`. Relative imports
 * are resolved against the importing file, so the depth of the file does not matter.
 */
const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' imports feature '{{to}}': move what both use to src/components (or libs/web) instead.",
    },
  },
  create(context) {
    const file = context.filename.split(path.sep).join('/');
    const match = /^(.*\/src\/features)\/([^/]+)\//.exec(file);
    if (!match) return {};
    const [, featuresDir, feature] = match;
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.resolve(path.posix.dirname(file), spec);
      const inside = path.posix.relative(featuresDir, target);
      if (inside.startsWith('..') || path.posix.isAbsolute(inside)) return;
      const other = inside.split('/')[0];
      if (other && other !== feature) {
        context.report({ node, messageId: 'crossFeature', data: { from: feature, to: other } });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The API's own code must not import a test-only library (its tests may). */
const TEST_ONLY_LIBS = {
  group: ['@grove/testing-*'],
  message: 'Test-only library: import it from *.spec.ts / *.integration-spec.ts files only.',
};

/** The web's test kit: web specs only. */
const WEB_TEST_KIT = {
  group: ['@grove/web-testing', '@grove/web-testing/*'],
  message:
    'Test kit of the web: import it from *.spec.ts(x) files (or a *.testing.ts helper) only.',
};

/** The web's sources: its apps and libs/web. */
const WEB_SOURCES = [
  'apps/{shell,marketing,dashboard,integrations,referral}/src/**/*.{ts,tsx}',
  'libs/web/**/*.{ts,tsx}',
];
/** The web's specs. */
const WEB_SPECS = [
  'apps/{shell,marketing,dashboard,integrations,referral}/src/**/*.spec.{ts,tsx}',
  'libs/web/**/*.spec.{ts,tsx}',
];
const API_LITERAL_MESSAGE =
  "Call the API through the generated client (`api` from @grove/web-data-access) with the contract's path, or build a link with `apiUrl` (@grove/api-contract).";
/** No `/api/…` string in the web: paths are the contract's, relative to /api. */
const NO_API_LITERAL = [
  { selector: 'Literal[value=/^\\/api\\//]', message: API_LITERAL_MESSAGE },
  { selector: 'TemplateElement[value.raw=/^\\/api\\//]', message: API_LITERAL_MESSAGE },
];

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
            // libs/web/* (React: the design system, the API client, forms, the web's test kit) serve
            // the web apps and each other only; the API, the sandbox, e2e and shared libs cannot import them.
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'] },
            { sourceTag: 'scope:shell', onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'] },
            {
              sourceTag: 'scope:marketing',
              onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'],
            },
            {
              sourceTag: 'scope:dashboard',
              onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'],
            },
            {
              sourceTag: 'scope:integrations',
              onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'],
            },
            {
              sourceTag: 'scope:referral',
              onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'],
            },
            {
              // scope:testing only from the API's tests: its own code is kept from it below.
              sourceTag: 'scope:api',
              onlyDependOnLibsWithTags: [
                'scope:api',
                'scope:mindbody',
                'scope:shared',
                'scope:testing',
              ],
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
              sourceTag: 'scope:stripe-sandbox',
              onlyDependOnLibsWithTags: ['scope:stripe-sandbox', 'scope:shared'],
            },
            {
              sourceTag: 'scope:mindbody',
              onlyDependOnLibsWithTags: ['scope:mindbody', 'scope:shared'],
            },
            { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:shared'] },
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
    plugins: {
      'react-hooks': reactHooks,
      grove: { rules: { 'no-cross-feature-imports': noCrossFeatureImports } },
    },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'grove/no-cross-feature-imports': 'error',
    },
  },
  {
    // The web's test kit (`@grove/web-testing`: the MSW fake API, renderWithProviders) serves web
    // specs (and their `*.testing.ts` helpers), never the code that ships.
    files: [
      'apps/{shell,marketing,dashboard,integrations,referral}/**/*.{ts,tsx}',
      'libs/web/**/*.{ts,tsx}',
    ],
    ignores: ['**/*.spec.{ts,tsx}', '**/*.testing.{ts,tsx}', 'libs/web/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [WEB_TEST_KIT] }] },
  },
  {
    // Test-only libraries (tag type:test, e.g. @grove/testing-smtp) serve the API's tests, never its code.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.integration-spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TEST_ONLY_LIBS] }] },
  },
  {
    // The API's areas (docs/architecture.md#api-areas): an area imports only areas below it
    // (platform ← owner, site, membership ← referral ← member, insight ← integrations), never a
    // root file; platform imports only platform. Specs are exempt.
    files: ['apps/api/src/app/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.integration-spec.ts'],
    plugins: {
      'grove-api': { rules: { 'area-order': apiAreaOrder, 'core-table-writes': coreTableWrites } },
    },
    rules: { 'grove-api/area-order': 'error', 'grove-api/core-table-writes': 'error' },
  },
  {
    // Who writes the core tables: SQL writing `members` or `price_changes` only in membership/,
    // Mindbody's and Stripe's bulk imports (integrations/*/persistence), migrations and the demo seed.
    files: [
      'apps/api/src/app/membership/**/*.ts',
      'apps/api/src/app/integrations/mindbody/persistence/**/*.ts',
      'apps/api/src/app/integrations/stripe-members/persistence/**/*.ts',
      'apps/api/src/app/platform/database/migrations/**/*.ts',
      'apps/api/src/app/demo-seed.ts',
      'apps/api/src/app/demo-history.ts',
    ],
    rules: { 'grove-api/core-table-writes': 'off' },
  },
  {
    // One way to the database (issue 13): SQL and TypeORM repositories only in a module's
    // `*.repository.ts` or in `platform/database/`; services call repository methods.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repository.ts',
      'apps/api/src/app/platform/database/**',
      'apps/api/src/app/{demo-seed,demo-history,database-schema}.ts',
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
            'Database access belongs in a *.repository.ts of the module that owns the table (or in platform/database/): call that repository instead.',
        },
      ],
    },
  },
  {
    // One contract between the web and the API (docs/architecture.md#the-api-contract): the web
    // calls the API only through the generated client, whose paths are the contract's (relative
    // to /api), and links the browser opens are built with apiUrl. Specs too: their fake API is
    // typed by the same paths.
    files: WEB_SOURCES,
    ignores: WEB_SPECS,
    rules: { 'no-restricted-syntax': ['error', ...NO_API_LITERAL] },
  },
  {
    // Web specs fake the API through the one MSW server of @grove/web-testing, never by
    // replacing or spying on fetch, and render through its providers (one test QueryClient).
    files: WEB_SPECS,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...NO_API_LITERAL,
        {
          selector: "AssignmentExpression[left.property.name='fetch']",
          message:
            'Fake the API with `http` and `server` from @grove/web-testing (MSW typed by the contract), not by replacing fetch.',
        },
        {
          selector: "CallExpression[callee.property.name='spyOn'][arguments.1.value='fetch']",
          message:
            'Fake the API with `http` and `server` from @grove/web-testing (MSW typed by the contract), not by spying on fetch.',
        },
        {
          selector: "NewExpression[callee.name='QueryClient']",
          message:
            'Render with `renderWithProviders` or take `createTestQueryClient()` from @grove/web-testing.',
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
