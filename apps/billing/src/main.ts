import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { BillingModule } from './billing.module';

runStandaloneApp('billing', BillingModule).catch(exitOnFailure);
