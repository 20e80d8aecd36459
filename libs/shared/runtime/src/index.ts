export * from './infrastructure';
export * from './core.module';
export * from './boot-app';
export * from './generated-secrets';
export * from './run-standalone-app';
export * from './shutdown';
export * from './projection-runner.providers';
