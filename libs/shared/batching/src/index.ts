export * from './statement-batcher';
