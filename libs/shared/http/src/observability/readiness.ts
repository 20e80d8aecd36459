import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HTTP_EDGE_OPTIONS, type HttpEdgeOptions } from '../http-edge.options';

/**
 * Whether the service takes traffic (`GET /health`). Ready once Nest has bootstrapped, unless the
 * composition root asked to decide itself (`readyOnBootstrap: false`, then `markReady()`); not
 * ready again from the start of shutdown, so the load balancer drains this replica first.
 */
@Injectable()
export class Readiness implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private ready = false;

  constructor(
    @Inject(HTTP_EDGE_OPTIONS) private readonly options: Pick<HttpEdgeOptions, 'readyOnBootstrap'>,
  ) {}

  get isReady(): boolean {
    return this.ready;
  }

  markReady(): void {
    this.ready = true;
  }

  markNotReady(): void {
    this.ready = false;
  }

  onApplicationBootstrap(): void {
    if (this.options.readyOnBootstrap) this.markReady();
  }

  beforeApplicationShutdown(): void {
    this.markNotReady();
  }
}
