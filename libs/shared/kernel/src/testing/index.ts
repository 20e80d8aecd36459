export * from './seeded-random';
export * from './validation-comparison';
