import { givenWhenThen } from '@xaalis/kernel/testing';
import type { ExchangeCommand } from './exchange.commands';
import { exchangeDecider } from './exchange.decide';
import type { ExchangeEvent } from './exchange.events';
import {
  completed,
  completedExchange,
  createExchange,
  dayReleased,
  dayReleasedEvent,
  exchangeCreated,
  expired,
  expiredExchange,
  failed,
  newExchange,
  paymentExpired,
  paymentFailed,
  paymentSucceeded,
  payoutFailed,
  payoutSucceeded,
  processing,
  processingExchange,
  refunded,
  refundedExchange,
  refundingExchange,
  refundRequested,
  refundSettled,
  unpaidFailedExchange,
} from './exchange.fixtures';

const { given } = givenWhenThen(exchangeDecider);

describe('exchange decider (CONTRACT 8)', () => {
  describe('CreateExchange', () => {
    it('opens awaiting payment with the terms of its quote', () => {
      given([]).when(createExchange()).then([exchangeCreated()]);
    });

    it('a retry of the create that made it decides nothing', () => {
      given(newExchange()).when(createExchange()).then([]);
    });

    it('refuses from = to', () => {
      given([])
        .when(createExchange({ to: 'wave' }))
        .thenRefuses('validation_error');
    });

    it('refuses terms that do not add up, as a programming error', () => {
      expect(() =>
        given([])
          .when(createExchange({ fee: 99 }))
          .outcome(),
      ).toThrow(RangeError);
    });
  });

  describe('the happy path', () => {
    it('a paid exchange is processing, then completed when the payout succeeds', () => {
      given(newExchange()).when(paymentSucceeded()).then([processing]);
      given(processingExchange()).when(payoutSucceeded()).then([completed]);
    });
  });

  describe('the payment does not happen', () => {
    it('an expired payment expires the exchange', () => {
      given(newExchange()).when(paymentExpired()).then([expired]);
    });

    it('a failed payment fails the exchange', () => {
      given(newExchange())
        .when(paymentFailed())
        .then([failed('payment_failed')]);
    });
  });

  describe('the payout fails after the customer paid', () => {
    it('fails the exchange and asks for a full refund of send_amount, once', () => {
      given(processingExchange())
        .when(payoutFailed())
        .then([failed('payout_failed'), refundRequested]);
      given(refundingExchange()).when(payoutFailed()).then([]);
    });

    it('the settled refund marks it refunded, once', () => {
      given(refundingExchange()).when(refundSettled()).then([refunded]);
      given(refundedExchange()).when(refundSettled()).then([]);
    });
  });

  describe("freeing the phone's day", () => {
    it.each<[string, ExchangeEvent[]]>([
      ['expired', expiredExchange()],
      ['failed unpaid', unpaidFailedExchange()],
      ['refunding', refundingExchange()],
    ])('a %s exchange frees it, once', (_, history) => {
      given(history).when(dayReleased()).then([dayReleasedEvent]);
      given([...history, dayReleasedEvent])
        .when(dayReleased())
        .then([]);
    });

    it.each<[string, ExchangeEvent[]]>([
      ['awaiting payment', newExchange()],
      ['processing', processingExchange()],
      ['completed', completedExchange()],
    ])('an exchange %s keeps it: invalid_state', (_, history) => {
      given(history).when(dayReleased()).thenRefuses('invalid_state');
    });
  });

  describe('repeats of the same fact decide nothing', () => {
    it.each<[string, ExchangeEvent[], ExchangeCommand]>([
      ['payment succeeded, processing', processingExchange(), paymentSucceeded()],
      ['payment succeeded, completed', completedExchange(), paymentSucceeded()],
      ['payment succeeded, refunding', refundingExchange(), paymentSucceeded()],
      ['payment expired', expiredExchange(), paymentExpired()],
      ['payment failed', unpaidFailedExchange(), paymentFailed()],
      ['payout succeeded', completedExchange(), payoutSucceeded()],
      ['payout failed', refundedExchange(), payoutFailed()],
    ])('%s', (_, history, command) => {
      given(history).when(command).then([]);
    });
  });

  describe('every other move is invalid_state', () => {
    it.each<[string, ExchangeEvent[], ExchangeCommand]>([
      ['a payment succeeding after expiry', expiredExchange(), paymentSucceeded()],
      ['a payment succeeding after it failed', unpaidFailedExchange(), paymentSucceeded()],
      ['a payment expiring once paid', processingExchange(), paymentExpired()],
      ['a payment expiring after it failed', unpaidFailedExchange(), paymentExpired()],
      ['a payment failing once paid', processingExchange(), paymentFailed()],
      ['a payment failing after expiry', expiredExchange(), paymentFailed()],
      ['a payout succeeding before payment', newExchange(), payoutSucceeded()],
      ['a payout succeeding after it failed', refundingExchange(), payoutSucceeded()],
      ['a payout failing before payment', newExchange(), payoutFailed()],
      ['a payout failing once completed', completedExchange(), payoutFailed()],
      ['a refund with none requested', completedExchange(), refundSettled()],
      ['another payment', newExchange(), paymentSucceeded('pay_other')],
      ['another payout', processingExchange(), payoutSucceeded('po_other')],
      ['another refund', refundingExchange(), refundSettled('re_other')],
    ])('%s', (_, history, command) => {
      given(history).when(command).thenRefuses('invalid_state');
    });

    it('a report about an unknown exchange is not_found', () => {
      given([]).when(paymentSucceeded()).thenRefuses('not_found');
    });
  });
});
