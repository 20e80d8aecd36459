/**
 * Three tiers by file suffix (STYLE 9): unit `*.spec.ts` (no I/O), int `*.int.spec.ts` (real
 * Postgres and the Kafka-protocol broker), e2e `*.e2e.spec.ts` (the running system over HTTP).
 * NestJS 12 and better-auth ship ES modules only; swc turns them into CommonJS for jest.
 */
const { readFileSync } = require('node:fs');
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    `<rootDir>/${target}`,
  ]),
);

const ESM_PACKAGES = [
  '@nestjs',
  'better-auth',
  '@better-auth',
  '@better-fetch',
  'better-call',
  'rou3',
  'nanostores',
  'jose',
  'defu',
  '@noble',
  'uncrypto',
  'kysely',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'load-esm',
  '@borewit',
  'zod',
  '@standard-schema',
  'cookie',
  'content-disposition',
  '@apidevtools',
];

const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj|cj)s$': ['@swc/jest', { ...swc, swcrc: false, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper,
  setupFiles: ['<rootDir>/tools/jest/setup.js'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'],
};

module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
      testPathIgnorePatterns: [
        ...base.testPathIgnorePatterns,
        '\\.int\\.spec\\.ts$',
        '\\.e2e\\.spec\\.ts$',
      ],
    },
    {
      ...base,
      displayName: 'int',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int.spec.ts'],
      // testTimeout is not a per-project option; each tier sets its own in a setup file.
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-int.js'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.e2e.spec.ts'],
      setupFilesAfterEnv: [
        '<rootDir>/tools/jest/timeout-e2e.js',
        '<rootDir>/tools/jest/openapi-traffic-e2e.ts',
      ],
    },
  ],
};
