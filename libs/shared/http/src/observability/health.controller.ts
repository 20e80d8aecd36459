import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@xaalis/kernel';
import { Readiness } from './readiness';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** 200 `{"status":"ok"}` once the service can take traffic (CONTRACT 10), 503 until then. */
  @ApiOperation({ summary: 'Whether the service can take traffic', security: [] })
  @ApiOkResponse({
    description: 'Ready (503 `unavailable` until then).',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'] } },
    },
  })
  @Get()
  health(): { status: 'ok' } {
    if (!this.readiness.isReady)
      throw new DomainError('unavailable', 'The service is not ready yet.');
    return { status: 'ok' };
  }
}
