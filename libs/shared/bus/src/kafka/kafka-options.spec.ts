import { Transport } from '@nestjs/microservices';
import { JsonKafkaSerializer } from './json-kafka-serializer';
import { kafkaClientOptions, kafkaMicroserviceOptions } from './kafka-options';

describe('kafka options', () => {
  const brokers = ['127.0.0.1:9092'];

  it('give each app its own server group, reading new groups from the oldest message', () => {
    const { transport, options } = kafkaMicroserviceOptions({
      brokers,
      app: 'webhooks',
      maxWaitTimeInMs: 20,
    });

    expect(transport).toBe(Transport.KAFKA);
    expect(options).toMatchObject({
      client: { clientId: 'webhooks', brokers },
      consumer: { groupId: 'webhooks', allowAutoTopicCreation: true, maxWaitTimeInMs: 20 },
      producer: { allowAutoTopicCreation: true },
      postfixId: '-server',
      subscribe: { fromBeginning: true },
    });
    expect(options.serializer).toBeInstanceOf(JsonKafkaSerializer);
  });

  it('give each app a client group for replies, kafkajs’ fetch wait unless told', () => {
    const { options } = kafkaClientOptions({ brokers, app: 'gateway' });

    expect(options).toMatchObject({
      client: { clientId: 'gateway' },
      consumer: { groupId: 'gateway', maxWaitTimeInMs: 5000 },
      postfixId: '-client',
      producerOnlyMode: false,
    });
    expect(
      kafkaClientOptions({ brokers, app: 'payouts', producerOnly: true }).options.producerOnlyMode,
    ).toBe(true);
  });

  it('keep a silent member for kafkajs’ 30 s unless told, heartbeating every third of it, 3 s at most', () => {
    expect(kafkaClientOptions({ brokers, app: 'gateway' }).options.consumer).toMatchObject({
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
    });
    const shorter = { brokers, app: 'payments' as const, sessionTimeoutMs: 6_000 };
    for (const { options } of [kafkaClientOptions(shorter), kafkaMicroserviceOptions(shorter)]) {
      expect(options.consumer).toMatchObject({ sessionTimeout: 6_000, heartbeatInterval: 2_000 });
    }
  });
});

describe('JsonKafkaSerializer', () => {
  it('sends the whole payload, even one with a `value` field', () => {
    const serializer = new JsonKafkaSerializer();

    expect(serializer.serialize({ ok: true, value: { available: 1 } })).toEqual({
      value: '{"ok":true,"value":{"available":1}}',
      headers: {},
    });
    expect(serializer.serialize(undefined)).toEqual({ value: null, headers: {} });
  });
});
