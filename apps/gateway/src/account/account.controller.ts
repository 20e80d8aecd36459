import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT, CONFIG, type XaalisConfig } from '@xaalis/config';
import { Idempotent } from '@xaalis/http';
import { request, WEBHOOKS_ENDPOINT_SET_DEFAULT, type BusRequester } from '@xaalis/contracts';
import {
  ApiCaller,
  ApiKeyAuth,
  assertPublicWebhookTarget,
  IdentityCommands,
  IdentityQueries,
  RequireScope,
} from '@xaalis/identity';
import { livemode } from '@xaalis/kernel';
import { AccountResponse } from './account.response';
import { UpdateAccountDto } from './update-account.dto';

/** CONTRACT 5: the merchant as one mode's key sees it. */
@ApiTags('account')
@Controller('v1/account')
@ApiKeyAuth()
export class AccountController {
  constructor(
    private readonly queries: IdentityQueries,
    private readonly commands: IdentityCommands,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  @ApiOperation({ summary: 'The account of the key' })
  @Get()
  @RequireScope('account', 'read')
  @ApiOkResponse({ type: AccountResponse, description: 'The account.' })
  get(@ApiCaller() caller: ApiCaller): Promise<AccountResponse> {
    return this.account(caller);
  }

  /**
   * The URL becomes the mode's default webhook endpoint before the answer, so every event after
   * it is delivered there. `account.updated` reaches the webhooks app on a forwarder of its own,
   * in no order with the payment events: waiting for it alone let an event made right after the
   * answer find no endpoint. When the webhooks app does not answer, the change stays recorded
   * (`account.updated` brings it there later) and the 503 says to try again; a repeat asks again.
   */
  @ApiOperation({ summary: 'Update the account (name, webhook URL)' })
  @Patch()
  @Idempotent({ required: false })
  @RequireScope('account', 'write')
  @ApiOkResponse({ type: AccountResponse, description: 'The account, with its new webhook URL.' })
  async update(
    @ApiCaller() caller: ApiCaller,
    @Body() body: UpdateAccountDto,
  ): Promise<AccountResponse> {
    await assertPublicWebhookTarget(body.webhook_url, this.config.webhookAllowedHosts);
    const updated = await this.commands.updateAccount(
      caller.merchantId,
      caller.mode,
      body.webhook_url,
    );
    await request(this.bus, WEBHOOKS_ENDPOINT_SET_DEFAULT, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      url: updated.webhookUrl,
      at: updated.updatedAt,
    });
    return this.account(caller);
  }

  private async account({ merchantId, mode }: ApiCaller): Promise<AccountResponse> {
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
