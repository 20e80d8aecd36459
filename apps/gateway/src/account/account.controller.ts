import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  ApiCaller,
  ApiKeyAuth,
  assertPublicWebhookTarget,
  IdentityCommands,
  IdentityQueries,
  RequireScope,
} from '@xaalis/identity';
import { livemode } from '@xaalis/kernel';
import { UpdateAccountDto } from './update-account.dto';

/** CONTRACT 5: the merchant as one mode's key sees it. */
@ApiTags('account')
@Controller('v1/account')
@ApiKeyAuth()
export class AccountController {
  constructor(
    private readonly queries: IdentityQueries,
    private readonly commands: IdentityCommands,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  @Get()
  @RequireScope('account', 'read')
  @ApiOkResponse({ description: '`{object: "account", id, name, livemode, webhook_url}`' })
  get(@ApiCaller() caller: ApiCaller) {
    return this.account(caller);
  }

  /** The URL becomes the mode's default webhook endpoint (the webhooks app follows `account.updated`). */
  @Patch()
  @RequireScope('account', 'write')
  @ApiOkResponse({ description: 'The account.' })
  async update(@ApiCaller() caller: ApiCaller, @Body() body: UpdateAccountDto) {
    await assertPublicWebhookTarget(body.webhook_url, this.config.webhookAllowedHosts);
    await this.commands.updateAccount(caller.merchantId, caller.mode, body.webhook_url);
    return this.account(caller);
  }

  private async account({ merchantId, mode }: ApiCaller) {
    const account = await this.queries.account(merchantId, mode);
    return {
      object: 'account',
      id: account.id,
      name: account.name,
      livemode: livemode(mode),
      webhook_url: account.webhookUrl,
    };
  }
}
