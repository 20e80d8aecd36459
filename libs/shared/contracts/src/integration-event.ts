import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { ISO_MS, idPattern } from './formats';
import { INTEGRATION_EVENT_TYPES, type IntegrationEventType } from './integration-event-types';

/** Where the fact was recorded: consumers order one stream's events by `revision`. */
export class EventSource {
  @IsString()
  @IsNotEmpty()
  stream!: string;

  @IsInt()
  @Min(0)
  revision!: number;
}

export class EventData {
  /** The resource as the API shows it (for payments and payouts: what `GET` returns). */
  @IsObject()
  object!: Record<string, unknown>;
}

/**
 * The envelope of every integration event on the bus. The webhook payload (spec 2.10) is this
 * minus `merchant_id` and `source`. `id` is derived from the recorded event, so a re-published
 * event keeps its id and consumers deduplicate on it.
 */
export class IntegrationEvent<EventType extends IntegrationEventType = IntegrationEventType> {
  @Matches(idPattern('evt'), { message: 'id must be an event id (evt_…)' })
  id!: string;

  @IsIn(INTEGRATION_EVENT_TYPES)
  type!: EventType;

  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;

  @IsISO8601({ strict: true })
  @Matches(ISO_MS, { message: 'created_at must be ISO 8601 UTC with milliseconds' })
  created_at!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => EventSource)
  source!: EventSource;

  @IsObject()
  @ValidateNested()
  @Type(() => EventData)
  data!: EventData;
}
