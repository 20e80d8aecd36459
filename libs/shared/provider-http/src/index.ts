/**
 * How every context talks to the mobile-money providers (Wave, Orange Money): one HTTP call
 * reduced to "answered" or "no answer", the options each adapter takes, and one client per
 * provider API (`WaveApi`, `OrangeMoneyApi` with its OAuth token cache). What a call means for a payment or a payout stays in that context's adapters; the
 * local fakes of both APIs are under `@xaalis/provider-http/testing`.
 */
export * from './provider-http';
export * from './provider-options';
export * from './orange-money-token';
export * from './wave-api';
export * from './orange-money-api';
