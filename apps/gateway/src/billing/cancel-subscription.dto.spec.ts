import { refusedFields, validateDto } from '../testing/validate-dto';
import { CancelSubscriptionDto } from './cancel-subscription.dto';

describe('CancelSubscriptionDto (spec 4.2)', () => {
  const refused = (body: unknown) => refusedFields(CancelSubscriptionDto, body);

  it('takes an empty body, or none', async () => {
    expect(await validateDto(CancelSubscriptionDto, {})).toEqual({
      dto: new CancelSubscriptionDto(),
    });
    expect(await validateDto(CancelSubscriptionDto, undefined)).toEqual({
      dto: new CancelSubscriptionDto(),
    });
  });

  it.each([true, false])('takes at_period_end = %p', async (atPeriodEnd) => {
    expect(await refused({ at_period_end: atPeriodEnd })).toEqual([]);
  });

  it.each(['true', 1, null])('refuses at_period_end = %p', async (atPeriodEnd) => {
    expect(await refused({ at_period_end: atPeriodEnd })).toEqual(['at_period_end']);
  });

  it('refuses a field the spec does not name', async () => {
    expect(await refused({ reason: 'trop cher' })).toEqual(['reason']);
  });
});
