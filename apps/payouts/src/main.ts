import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { PayoutsModule } from './payouts.module';

runStandaloneApp('payouts', PayoutsModule).catch(exitOnFailure);
