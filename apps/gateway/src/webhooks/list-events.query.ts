import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@xaalis/contracts';
import { ListQueryDto } from '@xaalis/http';

export class ListEventsQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES })
  @IsOptional()
  @IsIn(WEBHOOK_EVENT_TYPES)
  type?: WebhookEventType;
}
