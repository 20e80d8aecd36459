export * from './accounts';
export * from './balance.reader';
