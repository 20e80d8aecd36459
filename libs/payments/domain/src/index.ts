export * from './payment.events';
export * from './payment.commands';
export * from './payment.state';
export * from './payment.decide';
export * from './payment.view';
export * from './fees';
export * from './providers';
export * from './client-secret';
