export * from './test-postgres';
export * from './throwaway-database';
