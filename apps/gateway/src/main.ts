import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { GatewayModule } from './gateway.module';

runStandaloneApp('gateway', GatewayModule).catch(exitOnFailure);
