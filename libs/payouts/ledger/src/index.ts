export * from './balance.reader';
export * from './ledger';
export * from './ledger.audit';
export * from './testing/expect-ledger-balanced';
