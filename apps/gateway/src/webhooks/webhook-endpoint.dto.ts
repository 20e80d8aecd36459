import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
} from 'class-validator';
import { WEBHOOK_SUBSCRIPTIONS } from '@xaalis/contracts';
import { IsHttpsUrl, URL_MAX_LENGTH } from '@xaalis/http';

const EVENT_TYPES_MESSAGE = 'each event type must be a known event type or *';

export class CreateWebhookEndpointDto {
  @ApiProperty({
    format: 'uri',
    maxLength: URL_MAX_LENGTH,
    example: 'https://shop.example.sn/hooks',
  })
  @IsHttpsUrl()
  url!: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_SUBSCRIPTIONS, example: ['payment.succeeded'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_SUBSCRIPTIONS.length)
  @IsString({ each: true })
  @IsIn(WEBHOOK_SUBSCRIPTIONS, { each: true, message: EVENT_TYPES_MESSAGE })
  event_types!: string[];
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_SUBSCRIPTIONS })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_SUBSCRIPTIONS.length)
  @IsString({ each: true })
  @IsIn(WEBHOOK_SUBSCRIPTIONS, { each: true, message: EVENT_TYPES_MESSAGE })
  event_types?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}
