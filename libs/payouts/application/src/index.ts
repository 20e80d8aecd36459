export * from './agent-key.store';
