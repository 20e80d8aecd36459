import { DomainError } from '@xaalis/kernel';
import { IntegrationEvent } from './integration-event';
import { EVENT_TOPICS, INTEGRATION_EVENT_TYPES, topicOf } from './shared/integration-event-types';
import { validateMessage } from './shared/validate-message';

const valid = () => ({
  id: 'evt_01JF0000000000000000000000',
  type: 'payout.failed',
  merchant_id: 'mer_01JF0000000000000000000000',
  livemode: true,
  created_at: '2026-11-22T10:00:00.000Z',
  source: { stream: 'payout-po_01JF0000000000000000000000', revision: 0 },
  data: { object: { object: 'payout', id: 'po_01JF0000000000000000000000' } },
});

function issuesOf(payload: unknown): unknown {
  try {
    validateMessage(IntegrationEvent, payload);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return (error as DomainError).details;
  }
  throw new Error('expected a validation_error');
}

describe('IntegrationEvent', () => {
  it('accepts a valid envelope and returns it as an instance', () => {
    const event = validateMessage(IntegrationEvent, valid());

    expect(event).toBeInstanceOf(IntegrationEvent);
    expect(event).toEqual(valid());
  });

  it('strips fields the contract does not know (a newer producer), keeping the rest', () => {
    const event = validateMessage(IntegrationEvent, { ...valid(), added_later: 1 });

    expect(event).not.toHaveProperty('added_later');
    expect(event.id).toBe(valid().id);
  });

  it('names each broken field by its JSON path', () => {
    const payload = {
      ...valid(),
      id: 'pay_1',
      type: 'payment.exploded',
      created_at: '2026-11-22T10:00:00Z',
      source: { stream: '', revision: -1 },
      data: { object: [] },
    };

    expect(issuesOf(payload)).toEqual([
      { field: 'id', issue: 'id must be an event id (evt_…)' },
      {
        field: 'type',
        issue: expect.stringContaining(
          'type must be one of the following values: payment.succeeded',
        ),
      },
      { field: 'created_at', issue: 'created_at must be ISO 8601 UTC with milliseconds' },
      { field: 'source.stream', issue: 'stream should not be empty' },
      { field: 'source.revision', issue: 'revision must not be less than 0' },
      { field: 'data.object', issue: 'object must be an object' },
    ]);
  });

  it('refuses missing nested objects and non-objects', () => {
    const { source: _source, ...withoutSource } = valid();

    expect(issuesOf(withoutSource)).toEqual([
      { field: 'source', issue: 'source must be an object' },
    ]);
    expect(issuesOf('evt')).toEqual([{ field: '', issue: 'must be an object' }]);
    expect(issuesOf(null)).toEqual([{ field: '', issue: 'must be an object' }]);
  });

  it('has one topic per type, apart from request patterns', () => {
    expect(INTEGRATION_EVENT_TYPES).toHaveLength(13);
    expect(INTEGRATION_EVENT_TYPES).toContain('account.updated');
    expect(topicOf('invoice.overdue')).toBe('events.invoice.overdue');
    expect(new Set(EVENT_TOPICS).size).toBe(13);
  });
});
