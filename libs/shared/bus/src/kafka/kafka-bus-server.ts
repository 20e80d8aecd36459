import { ServerKafka } from '@nestjs/microservices';
import type { Consumer } from '@nestjs/microservices/external/kafka.interface.js';

/**
 * `ServerKafka` that leaves its consumer idle when the app has no handler (the gateway, say).
 * A consumer that runs with no subscribed topic joins its group with nothing to assign, and
 * SyncGroup fails ("Number of partitions is invalid"), then kafkajs restarts it forever.
 */
export class KafkaBusServer extends ServerKafka {
  override async bindEvents(consumer: Consumer): Promise<void> {
    if (this.getHandlers().size === 0) return;
    await super.bindEvents(consumer);
  }
}
