import { exitOnFailure, runStandaloneApp } from '@xaalis/runtime';
import { WebhooksModule } from './webhooks.module';

runStandaloneApp('webhooks', WebhooksModule).catch(exitOnFailure);
