export * from './merchant.events';
export * from './merchant.commands';
export * from './merchant.state';
export * from './merchant.decide';
export * from './api-key-scopes';
