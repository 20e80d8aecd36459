import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { IdentityCommands, MerchantCaller, Roles, SessionAuth } from '@xaalis/identity';
import { DEFAULT_WEBHOOK_SECRET_OVERLAP_HOURS } from '@xaalis/identity-domain';
import { NewIds } from '@xaalis/http';
import { RollWebhookSecretDto } from './roll-webhook-secret.dto';
import { RolledWebhookSecretResponse } from './rolled-webhook-secret.response';
import { IdempotentWebhookSecretIssuance } from './sealed-webhook-secret';

/**
 * Beyond the spec: replacing the webhook secret given at creation, with an overlap during which
 * every delivery is signed with both (spec 6 rule 5 lets a header carry several `v1`). One secret
 * per merchant, so no `{mode}` in the path.
 */
@ApiTags('dashboard: merchants')
@Controller('dashboard/v1/merchants/:merchantId/webhook-secret')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
export class WebhookSecretController {
  constructor(private readonly commands: IdentityCommands) {}

  @ApiOperation({ summary: 'Roll the webhook secret, the old one signing during an overlap' })
  @Post('roll')
  @Roles('owner')
  @IdempotentWebhookSecretIssuance()
  @ApiCreatedResponse({
    type: RolledWebhookSecretResponse,
    description:
      'The new secret. Deliveries are signed with it and, until `previous_expires_at`, with the ' +
      'one it replaces; rolling again during an overlap retires the older one.',
  })
  roll(
    @MerchantCaller() caller: MerchantCaller,
    @Body() body: RollWebhookSecretDto,
    @NewIds() ids: NewIds,
  ): Promise<RolledWebhookSecretResponse> {
    return this.commands.rollWebhookSecret(
      caller.merchantId,
      body.overlap_hours ?? DEFAULT_WEBHOOK_SECRET_OVERLAP_HOURS,
      ids.of('webhookSecretRoll'),
    );
  }
}
