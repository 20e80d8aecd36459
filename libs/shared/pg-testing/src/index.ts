export * from './test-postgres';
export * from './throwaway-database';
export * from './watched-pool';
export * from './describe-needing';
export * from './rows-scanned';
