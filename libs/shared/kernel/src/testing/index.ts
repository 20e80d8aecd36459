export * from './seeded-random';
export * from './given-when-then';
