import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { ListQueryDto } from '@xaalis/http';
import { CLIENT_REFERENCE_MAX_LENGTH } from '@xaalis/kernel';

/** Spec 4.3: `GET /v1/agent-wallets/{id}/payouts`. */
export class ListWalletPayoutsQuery extends ListQueryDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: CLIENT_REFERENCE_MAX_LENGTH,
    description: 'Only the payout made for this `action_id`',
  })
  @IsOptional()
  @IsString()
  @Length(1, CLIENT_REFERENCE_MAX_LENGTH)
  client_reference?: string;
}
