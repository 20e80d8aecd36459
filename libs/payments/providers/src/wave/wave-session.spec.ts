import {
  parseWaveAmount,
  pickWaveSession,
  readWaveSession,
  waveSessionStatus,
  type WaveSession,
} from './wave-session';

const session = (overrides: Partial<WaveSession> = {}): WaveSession => ({
  id: 'cos-1',
  amount: '1500',
  checkoutStatus: 'open',
  paymentStatus: 'processing',
  clientReference: 'pay_1',
  transactionId: null,
  launchUrl: 'https://pay.wave.com/c/cos-1',
  whenCreated: '2026-01-01T10:00:00Z',
  lastPaymentErrorCode: null,
  ...overrides,
});

describe('readWaveSession', () => {
  it('reads a session as Wave sends it', () => {
    expect(
      readWaveSession({
        id: 'cos-1ya2rewh0139m',
        amount: '125',
        currency: 'XOF',
        checkout_status: 'complete',
        payment_status: 'succeeded',
        client_reference: 'pay_1',
        transaction_id: 'TRG7XHH6UNR2SOACI',
        wave_launch_url: 'https://pay.wave.com/c/cos-1ya2rewh0139m',
        when_created: '2025-06-25T16:55:44Z',
        last_payment_error: null,
      }),
    ).toEqual({
      id: 'cos-1ya2rewh0139m',
      amount: '125',
      checkoutStatus: 'complete',
      paymentStatus: 'succeeded',
      clientReference: 'pay_1',
      transactionId: 'TRG7XHH6UNR2SOACI',
      launchUrl: 'https://pay.wave.com/c/cos-1ya2rewh0139m',
      whenCreated: '2025-06-25T16:55:44Z',
      lastPaymentErrorCode: null,
    });
  });

  it('reads the code of the last payment error', () => {
    expect(
      readWaveSession({
        id: 'cos-1',
        last_payment_error: { code: 'insufficient-funds', message: 'x' },
      })?.lastPaymentErrorCode,
    ).toBe('insufficient-funds');
  });

  it.each([[null], ['cos-1'], [{}], [{ id: 5 }], [[{ id: 'cos-1' }]]])('refuses %j', (value) => {
    expect(readWaveSession(value)).toBeNull();
  });
});

describe('parseWaveAmount', () => {
  it.each([
    ['1500', 1500],
    ['1500.00', 1500],
    ['1500.5', null],
    ['-5', null],
    ['', null],
    [null, null],
    ['1e3', null],
  ])('%j → %j', (amount, expected) => {
    expect(parseWaveAmount(amount)).toBe(expected);
  });
});

describe('waveSessionStatus', () => {
  it('open and processing: pending, with the launch URL to send the customer back to', () => {
    expect(waveSessionStatus(session())).toEqual({
      status: 'pending',
      providerReference: 'cos-1',
      redirectUrl: 'https://pay.wave.com/c/cos-1',
    });
  });

  it('an open session after a failed attempt is still pending: the customer may try again', () => {
    expect(waveSessionStatus(session({ lastPaymentErrorCode: 'insufficient-funds' })).status).toBe(
      'pending',
    );
  });

  it('succeeded: the transaction id and the amount paid', () => {
    expect(
      waveSessionStatus(
        session({ checkoutStatus: 'complete', paymentStatus: 'succeeded', transactionId: 'T_1' }),
      ),
    ).toEqual({
      status: 'succeeded',
      providerReference: 'cos-1',
      transactionId: 'T_1',
      amount: 1500,
    });
  });

  it('expired: failed, expired', () => {
    expect(
      waveSessionStatus(session({ checkoutStatus: 'expired', paymentStatus: 'cancelled' })),
    ).toEqual({ status: 'failed', providerReference: 'cos-1', reason: 'expired' });
  });

  it('cancelled: failed, cancelled', () => {
    expect(waveSessionStatus(session({ paymentStatus: 'cancelled' }))).toEqual({
      status: 'failed',
      providerReference: 'cos-1',
      reason: 'cancelled',
    });
  });

  it('a state Wave does not document is unknown, never a failure', () => {
    expect(waveSessionStatus(session({ checkoutStatus: 'complete' })).status).toBe('unknown');
    expect(waveSessionStatus(session({ checkoutStatus: null, paymentStatus: null })).status).toBe(
      'unknown',
    );
  });
});

describe('pickWaveSession', () => {
  it('prefers the paid session, then an open one, then the newest', () => {
    const expired = session({
      id: 'cos-old',
      checkoutStatus: 'expired',
      whenCreated: '2026-01-01T09:00:00Z',
    });
    const open = session({ id: 'cos-open', whenCreated: '2026-01-01T08:00:00Z' });
    const paid = session({
      id: 'cos-paid',
      paymentStatus: 'succeeded',
      checkoutStatus: 'complete',
    });
    const newerExpired = session({
      id: 'cos-new',
      checkoutStatus: 'expired',
      whenCreated: '2026-01-01T11:00:00Z',
    });
    expect(pickWaveSession([expired, open, paid])?.id).toBe('cos-paid');
    expect(pickWaveSession([expired, open])?.id).toBe('cos-open');
    expect(pickWaveSession([expired, newerExpired])?.id).toBe('cos-new');
    expect(pickWaveSession([])).toBeNull();
  });
});
