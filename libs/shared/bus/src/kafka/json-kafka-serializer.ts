import type { Serializer } from '@nestjs/microservices';

export interface OutgoingKafkaMessage {
  value: string | null;
  headers: Record<string, string>;
}

/**
 * Always sends the whole payload as the message value. Nest's default Kafka serializer takes
 * any object with a `key` or `value` field for a ready-made Kafka message and sends only its
 * `value`: the reply envelope `{ok: true, value}` would lose its `ok`. Payloads are objects, so
 * Nest's parser on the other side turns the JSON text back into one.
 */
export class JsonKafkaSerializer implements Serializer<unknown, OutgoingKafkaMessage> {
  serialize(value: unknown): OutgoingKafkaMessage {
    return { value: value === undefined ? null : JSON.stringify(value), headers: {} };
  }
}
