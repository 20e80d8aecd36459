import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@xaalis/http';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@xaalis/kernel';

/** CONTRACT 5: `GET /v1/subscriptions?status&limit&starting_after`. */
export class ListSubscriptionsQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}
