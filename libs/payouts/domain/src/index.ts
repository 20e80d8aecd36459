export * from './dakar-day';
export * from './payout-fee';
export * from './append-only-map';
export * from './wallet-policy.validation';
export * from './payout-policy';
export * from './agent-wallet.events';
export * from './agent-wallet.commands';
export * from './agent-wallet.view';
export * from './payout.events';
export * from './payout.commands';
export * from './payout.view';
// Both aggregates name their fold `initialState` / `evolve` / `decide` (STYLE 1): prefixed here.
export {
  countingDay,
  isKeyActive,
  spentOn,
  type AcceptedPayout,
  type ActionRecord,
  type AgentKeyState,
  type AgentWallet,
  type AgentWalletState,
  type DaySpending,
  evolve as evolveAgentWallet,
  exists as agentWalletExists,
  initialState as initialAgentWalletState,
} from './agent-wallet.state';
export {
  actionConflict,
  agentKeyRefused,
  agentWalletDecider,
  openPayoutId,
  payoutForAction,
  decide as decideAgentWallet,
} from './agent-wallet.decide';
export {
  debit,
  type Payout,
  type PayoutState,
  evolve as evolvePayout,
  exists as payoutExists,
  initialState as initialPayoutState,
} from './payout.state';
export { decide as decidePayout, payoutDecider } from './payout.decide';
