import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { ExchangeModule } from './exchange.module';

runStandaloneApp('exchange', ExchangeModule).catch(exitOnFailure);
