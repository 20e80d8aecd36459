export * from './errors';
export * from './ids';
export * from './secrets';
export * from './clock';
export * from './decider';
export * from './mode';
export * from './validation-metadata-memo';
export * from './records';
