import { ACTION_ID_MAX_LENGTH, MAX_WALLET_AMOUNT, RECIPIENT_NAME_MAX_LENGTH } from '@xaalis/kernel';
import { refusedFields, validateDto } from '../testing/validate-dto';
import { CreateAgentPayoutDto, PayoutRecipientDto } from './create-agent-payout.dto';

const newPayout = (overrides: Record<string, unknown> = {}) => ({
  amount: 5000,
  recipient: { phone: '+221771234567' },
  action_id: 'refund-order-1234',
  ...overrides,
});

describe('CreateAgentPayoutDto (spec 4.3)', () => {
  const refused = (body: unknown) => refusedFields(CreateAgentPayoutDto, body);

  it('takes a payout with its required fields, currency and recipient name optional', async () => {
    const result = await validateDto(
      CreateAgentPayoutDto,
      newPayout({ currency: 'XOF', recipient: { phone: '+221771234567', name: 'Awa Diop' } }),
    );
    expect('dto' in result && result.dto.recipient).toBeInstanceOf(PayoutRecipientDto);
    expect(await refused(newPayout())).toEqual([]);
  });

  it('names every missing required field', async () => {
    expect(await refused({})).toEqual(['amount', 'recipient', 'action_id']);
  });

  it.each([0, MAX_WALLET_AMOUNT + 1, 12.5, '5000'])('refuses amount %p', async (amount) => {
    expect(await refused(newPayout({ amount }))).toEqual(['amount']);
  });

  it('takes the amount at its bounds', async () => {
    expect(await refused(newPayout({ amount: 1 }))).toEqual([]);
    expect(await refused(newPayout({ amount: MAX_WALLET_AMOUNT }))).toEqual([]);
  });

  it('takes XOF as the only currency', async () => {
    expect(await refused(newPayout({ currency: 'EUR' }))).toEqual(['currency']);
  });

  it('checks the recipient field by field', async () => {
    expect(await refused(newPayout({ recipient: {} }))).toEqual(['recipient.phone']);
    expect(await refused(newPayout({ recipient: { phone: '+221601234567' } }))).toEqual([
      'recipient.phone',
    ]);
    expect(
      await refused(
        newPayout({
          recipient: { phone: '+221771234567', name: 'a'.repeat(RECIPIENT_NAME_MAX_LENGTH + 1) },
        }),
      ),
    ).toEqual(['recipient.name']);
    expect(await refused(newPayout({ recipient: '+221771234567' }))).toEqual(['recipient']);
    expect(
      await refused(newPayout({ recipient: { phone: '+221771234567', email: 'a@b.sn' } })),
    ).toEqual(['recipient.email']);
  });

  it('takes an action id of 1 to 100 characters', async () => {
    expect(await refused(newPayout({ action_id: 'a' }))).toEqual([]);
    expect(await refused(newPayout({ action_id: 'a'.repeat(ACTION_ID_MAX_LENGTH) }))).toEqual([]);
    expect(await refused(newPayout({ action_id: '' }))).toEqual(['action_id']);
    expect(await refused(newPayout({ action_id: 'a'.repeat(ACTION_ID_MAX_LENGTH + 1) }))).toEqual([
      'action_id',
    ]);
  });

  it('refuses a wallet or provider in the body: they come from the agent key', async () => {
    expect(await refused(newPayout({ agent_wallet_id: 'aw_1', provider: 'wave' }))).toEqual([
      'agent_wallet_id',
      'provider',
    ]);
  });
});
