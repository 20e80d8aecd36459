import { Injectable, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { HttpMetrics } from '@xaalis/http';

/** Whether a recorded event got deliveries, or no endpoint wanted it. */
export type RecordedOutcome = 'delivering' | 'no_endpoint';

/**
 * `webhook_events_recorded_total{type, outcome}` on the app's `/metrics` (the registry of its
 * HTTP edge, when it has one): an operator sees events recorded with no endpoint as they happen,
 * beside `webhook_events.endpoints_matched = 0` in the database. Both labels are closed sets.
 */
@Injectable()
export class WebhookEventMetrics {
  private readonly recorded: Counter<'type' | 'outcome'>;

  constructor(@Optional() metrics?: HttpMetrics) {
    this.recorded = new Counter({
      name: 'webhook_events_recorded_total',
      help: 'Events the webhooks app recorded, by type and whether any endpoint wanted them.',
      labelNames: ['type', 'outcome'] as const,
      registers: metrics ? [metrics.registry] : [],
    });
  }

  eventRecorded(type: string, endpointsMatched: number): void {
    const outcome: RecordedOutcome = endpointsMatched > 0 ? 'delivering' : 'no_endpoint';
    this.recorded.labels({ type, outcome }).inc();
  }
}
