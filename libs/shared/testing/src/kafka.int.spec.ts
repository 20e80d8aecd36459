import { connect } from 'node:net';
import { describeWithKafka, startKafkaMock } from './kafka';

const reachable = (address: string) =>
  new Promise<boolean>((resolve) => {
    const [host, port] = address.split(':');
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describeWithKafka('startKafkaMock', () => {
  it('starts a cluster of the asked size, reachable until stopped', async () => {
    const kafka = await startKafkaMock({ brokers: 2 });
    try {
      expect(kafka.brokers).toHaveLength(2);
      expect(kafka.brokers.every((broker) => /^127\.0\.0\.1:\d+$/.test(broker))).toBe(true);
      expect(await Promise.all(kafka.brokers.map(reachable))).toEqual([true, true]);
    } finally {
      await kafka.stop();
    }
    expect(await Promise.all(kafka.brokers.map(reachable))).toEqual([false, false]);
  });
});
