import { ClientKafka } from '@nestjs/microservices';
import { createBusClient, busServerStrategy } from './bus-client';
import { InProcessBroker } from './in-process/in-process-broker';
import { InProcessClient } from './in-process/in-process-client';
import { InProcessServer } from './in-process/in-process-server';
import { KafkaBusServer } from './kafka/kafka-bus-server';

/** What ClientKafka was told before connecting (nothing connects in these tests). */
const kafkaSetup = (client: unknown) => {
  const kafka = client as {
    responsePatterns: string[];
    producerOnlyMode: boolean;
    groupId: string;
  };
  return {
    replies: kafka.responsePatterns,
    producerOnly: kafka.producerOnlyMode,
    groupId: kafka.groupId,
  };
};

describe('createBusClient', () => {
  const kafkaBrokers = ['127.0.0.1:9092'];

  it('is the in-process client when only a broker is given', () => {
    expect(createBusClient('gateway', { broker: new InProcessBroker() })).toBeInstanceOf(
      InProcessClient,
    );
    expect(
      createBusClient('gateway', { broker: new InProcessBroker(), kafkaBrokers: [] }),
    ).toBeInstanceOf(InProcessClient);
  });

  it('is Kafka when brokers are given, listening for the replies of the patterns it may ask', () => {
    const client = createBusClient('gateway', { kafkaBrokers, broker: new InProcessBroker() });

    expect(client).toBeInstanceOf(ClientKafka);
    expect(kafkaSetup(client)).toEqual({
      replies: expect.arrayContaining([
        'payouts.balance.get.reply',
        'payments.payment.create.reply',
      ]),
      producerOnly: false,
      groupId: 'gateway-client',
    });
    expect(kafkaSetup(client).replies).not.toContain('payouts.ledger.hold.reply');
  });

  it('listens only for the replies of the patterns the app calls', () => {
    expect(kafkaSetup(createBusClient('payments', { kafkaBrokers }))).toMatchObject({
      replies: [
        'payouts.ledger.hold.reply',
        'payouts.ledger.settle.reply',
        'payouts.ledger.release.reply',
      ],
      producerOnly: false,
    });
  });

  it('runs producer-only for an app that asks nobody', () => {
    expect(kafkaSetup(createBusClient('payouts', { kafkaBrokers }))).toMatchObject({
      replies: [],
      producerOnly: true,
    });
  });

  it('refuses to guess a transport', () => {
    expect(() => createBusClient('gateway', {})).toThrow(
      'The bus needs kafkaBrokers (distributed mode) or an InProcessBroker (embedded mode).',
    );
  });
});

describe('busServerStrategy', () => {
  it('serves the app on the in-process broker, or on Kafka', () => {
    const inProcess = busServerStrategy('billing', { broker: new InProcessBroker() }).strategy;
    const kafka = busServerStrategy('billing', { kafkaBrokers: ['127.0.0.1:9092'] }).strategy;

    expect(inProcess).toBeInstanceOf(InProcessServer);
    expect((inProcess as InProcessServer).group).toBe('billing');
    expect(kafka).toBeInstanceOf(KafkaBusServer);
  });
});
