import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HttpMetrics } from './http-metrics';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: HttpMetrics) {}

  /** Prometheus text exposition (CONTRACT 10). */
  @ApiOperation({ summary: 'Prometheus metrics', security: [] })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition format',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Get()
  @Header('cache-control', 'no-store')
  async metricsText(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    reply.header('content-type', this.metrics.contentType);
    return this.metrics.text();
  }
}
