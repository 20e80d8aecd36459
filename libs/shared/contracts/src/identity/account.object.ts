import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { URL_MAX_LENGTH } from '@xaalis/kernel';
import { idPattern } from '../shared/formats';

/**
 * `data.object` of `account.updated`: the account's webhook URL in one mode. Internal: the
 * webhooks app follows it to keep the mode's default endpoint; merchants never receive it.
 */
export class AccountObject {
  @IsIn(['account'])
  object!: 'account';

  @Matches(idPattern('mer'), { message: 'id must be a merchant id (mer_…)' })
  id!: string;

  @IsBoolean()
  livemode!: boolean;

  /** Null when the merchant cleared it: the default endpoint stops. */
  @IsOptional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  webhook_url!: string | null;
}
