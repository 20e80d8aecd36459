export * from './payout-provider';
export * from './live-payout-providers';
export { WavePayoutProvider } from './wave/wave-payout-provider';
export { OrangeMoneyPayoutProvider } from './orange-money/orange-money-payout-provider';
