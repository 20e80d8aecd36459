import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { HTTP_EDGE_OPTIONS, type HttpEdgeOptions } from '../http-edge.options';

/** A request that matched no route; its URL is not a label, or any scanner could grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Prometheus metrics of the HTTP edge, in a registry of their own: the embedded mode runs several
 * Nest apps in one process, and prom-client's global registry refuses a metric registered twice.
 */
@Injectable()
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(@Inject(HTTP_EDGE_OPTIONS) options: Pick<HttpEdgeOptions, 'collectDefaultMetrics'>) {
    if (options.collectDefaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
