import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { PaymentsModule } from './payments.module';

runStandaloneApp('payments', PaymentsModule).catch(exitOnFailure);
