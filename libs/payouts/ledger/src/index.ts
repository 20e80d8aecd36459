export * from './balance.reader';
export * from './ledger';
export * from './ledger.audit';
export { inTransaction } from './transaction';
export * from './testing/expect-ledger-balanced';
