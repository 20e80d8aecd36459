import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { lastValueFrom } from 'rxjs';
import { BUS_CLIENT } from '@xaalis/config';
import {
  PAYOUTS_BALANCE_GET,
  request,
  topicOf,
  type BalanceRequest,
  type IntegrationEvent,
} from '@xaalis/contracts';
import { DomainError } from '@xaalis/kernel';
import { BusModule } from '../bus.module';
import type { BusClient } from '../bus-client';
import { Inbox, newIntegrationEvent, startFixtureApp } from '../testing/fixture-apps';
import { InProcessBroker } from './in-process-broker';

const MERCHANT = 'mer_01JF0000000000000000000001';

describe('in-process bus', () => {
  let broker: InProcessBroker;
  let apps: INestMicroservice[];
  let gateway: INestApplicationContext;
  let client: BusClient;
  const inboxes = { payouts: new Inbox(), webhooks: new Inbox(), billing: new Inbox() };

  beforeEach(async () => {
    broker = new InProcessBroker({ retryDelayMs: 1 });
    inboxes.payouts = new Inbox();
    inboxes.webhooks = new Inbox();
    inboxes.billing = new Inbox();
    apps = [
      await startFixtureApp('payouts', inboxes.payouts, { broker }, false),
      await startFixtureApp('webhooks', inboxes.webhooks, { broker }, false),
      await startFixtureApp('billing', inboxes.billing, { broker }, false),
    ];
    gateway = await NestFactory.createApplicationContext(BusModule.forApp('gateway', { broker }), {
      logger: false,
    });
    client = gateway.get<BusClient>(BUS_CLIENT);
  });

  afterEach(async () => {
    await gateway.close();
    for (const app of apps) await app.close();
  });

  describe('request-reply', () => {
    it('returns the owner’s typed reply', async () => {
      inboxes.payouts.balances.set(`${MERCHANT}/test`, { available: 1200, pending: 300 });

      const balance = await request(client, PAYOUTS_BALANCE_GET, {
        merchant_id: MERCHANT,
        mode: 'test',
      });

      expect(balance).toEqual({ available: 1200, pending: 300 });
      expect(inboxes.payouts.requests).toEqual([{ merchant_id: MERCHANT, mode: 'test' }]);
    });

    it('answers Nest’s send() too, with the owner’s envelope', async () => {
      inboxes.payouts.balances.set(`${MERCHANT}/test`, { available: 5, pending: 1 });

      const envelope = await lastValueFrom(
        client.send(PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'test' }),
      );

      expect(envelope).toEqual({ ok: true, value: { available: 5, pending: 1 } });
    });

    it('hands the owner its own validated copy of the request, not the caller’s object', async () => {
      inboxes.payouts.balances.set(`${MERCHANT}/test`, { available: 1, pending: 0 });
      const sent = { merchant_id: MERCHANT, mode: 'test' as const, ignored: 'stripped' };

      await request(client, PAYOUTS_BALANCE_GET, sent);
      const received = inboxes.payouts.requests[0]!;
      received.mode = 'live';

      expect(received).not.toBe(sent);
      expect(received).toEqual({ merchant_id: MERCHANT, mode: 'live' });
      expect(sent).toEqual({ merchant_id: MERCHANT, mode: 'test', ignored: 'stripped' });
    });

    it('reaches exactly one handler, however many apps run', async () => {
      inboxes.payouts.balances.set(`${MERCHANT}/live`, { available: 1, pending: 0 });

      await request(client, PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'live' });
      await request(client, PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'live' });

      expect(inboxes.payouts.requests).toHaveLength(2);
      expect(inboxes.webhooks.requests).toHaveLength(0);
      expect(inboxes.billing.requests).toHaveLength(0);
    });

    it('refuses a second app answering the same pattern', async () => {
      const shared = new InProcessBroker();
      shared.answer(PAYOUTS_BALANCE_GET, 'billing', async () => ({ response: {} }));

      await expect(
        startFixtureApp('payouts', new Inbox(), { broker: shared }, false),
      ).rejects.toThrow(
        'Request pattern "payouts.balance.get" is already answered by billing; payouts may not answer it too.',
      );
    });

    it('brings a DomainError back with its code, message and details', async () => {
      const failure = request(client, PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'test' });

      await expect(failure).rejects.toBeInstanceOf(DomainError);
      await expect(failure).rejects.toMatchObject({
        code: 'not_found',
        message: 'No such merchant.',
      });
    });

    it('answers internal_error, and nothing of the bug, when the owner’s handler throws', async () => {
      inboxes.payouts.crashNext = 1;

      const failure = request(client, PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'test' });

      await expect(failure).rejects.toBeInstanceOf(DomainError);
      await expect(failure).rejects.toMatchObject({
        code: 'internal_error',
        message: 'Internal error.',
      });
      expect(inboxes.payouts.requests).toHaveLength(1);
    });

    it('answers validation_error, field by field, to an invalid payload', async () => {
      const invalid = { merchant_id: 'acct_1', mode: 'prod' } as unknown as BalanceRequest;

      const error = await request(client, PAYOUTS_BALANCE_GET, invalid).catch(
        (caught: unknown) => caught,
      );

      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'validation_error',
        details: [
          { field: 'merchant_id', issue: 'merchant_id must be a merchant id (mer_…)' },
          { field: 'mode', issue: 'mode must be one of the following values: test, live' },
        ],
      });
      expect(inboxes.payouts.requests).toHaveLength(0);
    });

    it('is unavailable when nobody owns the pattern', async () => {
      await apps[0]!.close();

      await expect(
        request(client, PAYOUTS_BALANCE_GET, { merchant_id: MERCHANT, mode: 'test' }),
      ).rejects.toMatchObject({ code: 'unavailable' });
    });
  });

  describe('events', () => {
    it('reach each subscribed app once, and no other', async () => {
      const event = newIntegrationEvent();

      await lastValueFrom(client.emit(topicOf('payment.succeeded'), event), {
        defaultValue: undefined,
      });

      expect(inboxes.payouts.events).toEqual([event]);
      expect(inboxes.webhooks.events).toEqual([event]);
      expect(inboxes.billing.deliveries).toBe(0);
    });

    it('are delivered after emit returns, never inside it', async () => {
      const emitted = client.emit(topicOf('payment.succeeded'), newIntegrationEvent());

      expect(inboxes.payouts.deliveries + inboxes.webhooks.deliveries).toBe(0);
      await lastValueFrom(emitted, { defaultValue: undefined });
      expect(inboxes.payouts.deliveries + inboxes.webhooks.deliveries).toBe(2);
    });

    it('cross as JSON: no app shares the sender’s object or another app’s', async () => {
      const event = newIntegrationEvent();

      await lastValueFrom(client.emit(topicOf('payment.succeeded'), event), {
        defaultValue: undefined,
      });
      // The fixture's object is a bare record: the envelope's check leaves `data.object` unread.
      const objectOf = (sent: IntegrationEvent) =>
        sent.data.object as unknown as Record<string, unknown>;
      objectOf(inboxes.payouts.events[0]!).amount = 1;

      expect(objectOf(inboxes.webhooks.events[0]!).amount).toBe(5000);
      expect(objectOf(event).amount).toBe(5000);
    });

    it('are redelivered to a failing app only, and emit completes once it succeeded', async () => {
      inboxes.webhooks.failNext = 2;

      await lastValueFrom(client.emit(topicOf('payment.succeeded'), newIntegrationEvent()), {
        defaultValue: undefined,
      });

      expect(inboxes.webhooks.deliveries).toBe(3);
      expect(inboxes.webhooks.events).toHaveLength(1);
      expect(inboxes.payouts.deliveries).toBe(1);
    });

    it('fail the emit when an app still fails after its attempts, so the publisher retries', async () => {
      inboxes.webhooks.failNext = 3;

      await expect(
        lastValueFrom(client.emit(topicOf('payment.succeeded'), newIntegrationEvent()), {
          defaultValue: undefined,
        }),
      ).rejects.toThrow(
        'Event on "events.payment.succeeded" was not handled by webhooks after 3 attempts.',
      );
      expect(inboxes.payouts.events).toHaveLength(1);
    });

    it('published before a closed bus opens, wait and reach the apps subscribed by then', async () => {
      const closed = new InProcessBroker({ retryDelayMs: 1, closedUntilOpen: true });
      const early = new Inbox();
      const late = new Inbox();
      const first = await startFixtureApp('payouts', early, { broker: closed }, false);
      const publisher = await NestFactory.createApplicationContext(
        BusModule.forApp('gateway', { broker: closed }),
        { logger: false },
      );
      try {
        const emitted = lastValueFrom(
          publisher
            .get<BusClient>(BUS_CLIENT)
            .emit(topicOf('payment.succeeded'), newIntegrationEvent()),
          { defaultValue: undefined },
        );
        // An app that boots after the publish, as the ledger after a forwarder with a backlog.
        const second = await startFixtureApp('webhooks', late, { broker: closed }, false);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect([early.events.length, late.events.length]).toEqual([0, 0]);

        closed.open();
        await emitted;

        expect([early.events.length, late.events.length]).toEqual([1, 1]);
        await second.close();
      } finally {
        await publisher.close();
        await first.close();
      }
    });
  });
});
