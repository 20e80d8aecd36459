import { ClientKafka, type ClientProxy, type CustomStrategy } from '@nestjs/microservices';
import { REQUEST_PATTERNS, REQUESTS, type AppName } from '@xaalis/contracts';
import type { InProcessBroker } from './in-process/in-process-broker';
import { InProcessClient } from './in-process/in-process-client';
import { InProcessServer } from './in-process/in-process-server';
import { KafkaBusServer } from './kafka/kafka-bus-server';
import { kafkaClientOptions, kafkaMicroserviceOptions } from './kafka/kafka-options';

export interface BusOptions {
  /** Set (and not empty): Kafka between the apps (distributed mode). Takes precedence. */
  kafkaBrokers?: string[];
  /** The process's one in-process broker (embedded mode). */
  broker?: InProcessBroker;
  /** Consumer fetch wait; see `KafkaBusOptions.maxWaitTimeInMs`. */
  kafkaMaxWaitMs?: number;
  /** Consumer group session; see `KafkaBusOptions.sessionTimeoutMs`. */
  kafkaSessionTimeoutMs?: number;
}

/**
 * What `BUS_CLIENT` holds: the part of a Nest `ClientProxy` the apps use. (ClientKafka is not
 * assignable to the bare `ClientProxy` type: its status stream is typed narrower.)
 */
export type BusClient = Pick<ClientProxy, 'connect' | 'close' | 'send' | 'emit'>;

type Mode = { kind: 'kafka'; brokers: string[] } | { kind: 'in-process'; broker: InProcessBroker };

function modeOf(options: BusOptions): Mode {
  if (options.kafkaBrokers !== undefined && options.kafkaBrokers.length > 0) {
    return { kind: 'kafka', brokers: options.kafkaBrokers };
  }
  if (options.broker !== undefined) return { kind: 'in-process', broker: options.broker };
  throw new Error(
    'The bus needs kafkaBrokers (distributed mode) or an InProcessBroker (embedded mode).',
  );
}

/** The app's `ClientProxy`: what `BUS_CLIENT` holds. */
export function createBusClient(app: AppName, options: BusOptions): BusClient {
  const mode = modeOf(options);
  if (mode.kind === 'in-process') return new InProcessClient(mode.broker);
  // ClientKafka must know every reply topic before it connects: the patterns this app calls. One
  // that asks nobody runs producer-only: a reply consumer with no topic cannot join its group.
  const asks = REQUEST_PATTERNS.filter((pattern) =>
    (REQUESTS[pattern].callers as readonly AppName[]).includes(app),
  );
  const client = new ClientKafka(
    kafkaClientOptions({
      brokers: mode.brokers,
      app,
      maxWaitTimeInMs: options.kafkaMaxWaitMs,
      sessionTimeoutMs: options.kafkaSessionTimeoutMs,
      producerOnly: asks.length === 0,
    }).options,
  );
  for (const pattern of asks) client.subscribeToResponseOf(pattern);
  return client;
}

/** What to pass to `app.connectMicroservice(...)` (or `NestFactory.createMicroservice`). */
export function busServerStrategy(app: AppName, options: BusOptions): CustomStrategy {
  const mode = modeOf(options);
  if (mode.kind === 'in-process') return { strategy: new InProcessServer(mode.broker, app) };
  return {
    strategy: new KafkaBusServer(
      kafkaMicroserviceOptions({
        brokers: mode.brokers,
        app,
        maxWaitTimeInMs: options.kafkaMaxWaitMs,
        sessionTimeoutMs: options.kafkaSessionTimeoutMs,
      }).options,
    ),
  };
}
