export * from './exchange-application.module';
export * from './exchange-account.service';
export * from './exchange-money';
export * from './exchange-progress';
export * from './exchange.projection';
export * from './exchange.tokens';
export * from './exchanges.service';
export * from './quotes.service';
