import { Transport, type KafkaOptions } from '@nestjs/microservices';
import { Partitioners } from 'kafkajs';
import type { AppName } from '@xaalis/contracts';
import { JsonKafkaSerializer } from './json-kafka-serializer';

export interface KafkaBusOptions {
  brokers: string[];
  app: AppName;
  /**
   * How long a fetch waits for data (kafkajs default 5000). A real broker answers as soon as a
   * message arrives; the librdkafka mock cluster waits the whole time, so tests pass ~20 ms or
   * every reply takes 5 s.
   */
  maxWaitTimeInMs?: number;
  /**
   * How long a consumer group waits for a member that stopped heartbeating (kafkajs default
   * 30000). A restarted app's consumers join once the group has dropped its dead ones, so after a
   * crash this is how long the app's topics go unread. Heartbeats go every third of it, every 3 s
   * at most (kafkajs's interval).
   */
  sessionTimeoutMs?: number;
}

export type KafkaTransportOptions = Required<Pick<KafkaOptions, 'transport'>> & {
  options: NonNullable<KafkaOptions['options']>;
};

const DEFAULT_MAX_WAIT_MS = 5_000;
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
const MAX_HEARTBEAT_INTERVAL_MS = 3_000;

function common(options: KafkaBusOptions) {
  return {
    client: { clientId: options.app, brokers: options.brokers },
    producer: {
      // Topics come into being on first use: one per event type and per request pattern, plus
      // `<pattern>.reply`. Creating them up front would need the admin API, which the mock
      // cluster refuses ("Broker 0 not found in the cached metadata").
      allowAutoTopicCreation: true,
      // kafkajs 2's default (murmur2, as the Java client), named so kafkajs stops warning.
      createPartitioner: Partitioners.DefaultPartitioner,
    },
    serializer: new JsonKafkaSerializer(),
  };
}

/** The consumer settings the app's server and client share (their group ids differ by postfix). */
function consumer(options: KafkaBusOptions) {
  const sessionTimeout = options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  return {
    groupId: options.app,
    // Subscribing asks for the topic's metadata; with auto-creation that creates the topic,
    // so a consumer can start before anything was ever produced to it.
    allowAutoTopicCreation: true,
    maxWaitTimeInMs: options.maxWaitTimeInMs ?? DEFAULT_MAX_WAIT_MS,
    sessionTimeout,
    heartbeatInterval: Math.min(MAX_HEARTBEAT_INTERVAL_MS, Math.floor(sessionTimeout / 3)),
  };
}

/**
 * The app's server: consumer group `<app>-server`, so each app gets every event of the topics
 * it has `@EventPattern`s for once, and requests of the patterns it owns.
 */
export function kafkaMicroserviceOptions(options: KafkaBusOptions): KafkaTransportOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      ...common(options),
      postfixId: '-server',
      consumer: consumer(options),
      // A new group starts at the oldest retained message, not the newest: an event published
      // while the group was still joining (a 3 s wait on the mock) is not lost.
      subscribe: { fromBeginning: true },
    },
  };
}

/**
 * The app's client: requests, replies on `<pattern>.reply` (consumer group `<app>-client`) and
 * events. `producerOnly` skips the reply consumer, for a process that only emits.
 */
export function kafkaClientOptions(
  options: KafkaBusOptions & { producerOnly?: boolean },
): KafkaTransportOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      ...common(options),
      postfixId: '-client',
      producerOnlyMode: options.producerOnly ?? false,
      consumer: consumer(options),
    },
  };
}
