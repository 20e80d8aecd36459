export * from './postgres';
export * from './kafka';
export * from './raw-http';
