import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DomainError } from '@xaalis/kernel';
import { Readiness } from './readiness';

@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** 200 `{"status":"ok"}` once the service can take traffic (CONTRACT 10), 503 until then. */
  @Get()
  health(): { status: 'ok' } {
    if (!this.readiness.isReady)
      throw new DomainError('unavailable', 'The service is not ready yet.');
    return { status: 'ok' };
  }
}
