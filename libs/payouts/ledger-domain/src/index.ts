export * from './accounts';
export * from './ledger.inputs';
export * from './ledger.postings';
