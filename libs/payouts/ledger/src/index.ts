export * from './accounts';
export * from './balance.reader';
export * from './ledger';
export * from './ledger.inputs';
export * from './ledger.postings';
export * from './ledger.audit';
export * from './testing/expect-ledger-balanced';
