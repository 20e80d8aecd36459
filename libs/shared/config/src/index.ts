export * from './config';
export * from './tokens';
