import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

type Labels = 'method' | 'route' | 'status';

/** The two series of one (method, route, status). */
interface Series {
  requests: Counter.Internal;
  duration: Histogram.Internal<Labels>;
}
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

  /**
   * Each (method, route, status) met is remembered with its two series, so a response costs two
   * additions rather than two lookups by a key built from its labels (measured: several percent of
   * a payment read). The routes are the app's patterns, so the combinations are few.
   */
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const routeLabel = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${status} ${routeLabel}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { method, route: routeLabel, status: String(status) };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
