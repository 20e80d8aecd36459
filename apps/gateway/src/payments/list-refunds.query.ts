import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { idPattern } from '@xaalis/contracts';
import { ListQueryDto } from '@xaalis/http';

export class ListRefundsQuery extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Only the refunds of this payment (`pay_…`).' })
  @IsOptional()
  @Matches(idPattern('pay'), { message: 'payment must be a payment id (pay_…)' })
  payment?: string;
}
