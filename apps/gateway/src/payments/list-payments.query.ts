import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PAYMENT_STATUSES, type PaymentStatus } from '@xaalis/kernel';
import { ListQueryDto } from '@xaalis/http';

export class ListPaymentsQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;
}
