import { Body, Controller, Delete, Get, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CLOCK } from '@xaalis/config';
import {
  ApiErrors,
  ApiListResponse,
  Idempotent,
  ListQueryDto,
  NewIds,
  toListResponse,
} from '@xaalis/http';
import {
  ApiKeyObject,
  IdentityCommands,
  IdentityQueries,
  IssuedApiKey,
  MerchantModeCaller,
  Roles,
  RolledApiKey,
  SessionAuth,
  toApiKeyObject,
} from '@xaalis/identity';
import type { Clock } from '@xaalis/kernel';
import { IdempotentSecretIssuance } from '../common/secret-once';
import { RestrictedApiKeyDto } from './restricted-api-key.dto';
import { RollApiKeyDto } from './roll-api-key.dto';

/** Spec 4.4: keys of one merchant and mode. Writes are owner-only and need an idempotency key. */
@ApiTags('dashboard: API keys')
@Controller('dashboard/v1/merchants/:merchantId/:mode')
@SessionAuth()
@ApiParam({ name: 'merchantId' })
@ApiParam({ name: 'mode', enum: ['test', 'live'] })
export class ApiKeysController {
  constructor(
    private readonly commands: IdentityCommands,
    private readonly queries: IdentityQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @ApiOperation({ summary: 'Issue a secret API key (shown once)' })
  @Post('api-keys')
  @Roles('owner')
  @IdempotentSecretIssuance()
  @ApiCreatedResponse({
    type: IssuedApiKey,
    description: 'A secret key; `secret_key` is shown this once.',
  })
  issue(@MerchantModeCaller() caller: MerchantModeCaller, @NewIds() ids: NewIds) {
    return this.commands.issueApiKey(
      caller.merchantId,
      caller.mode,
      'secret',
      null,
      ids.of('apiKey'),
    );
  }

  @ApiOperation({ summary: 'List API keys (never their secrets)' })
  @Get('api-keys')
  @Roles('owner', 'developer')
  @ApiListResponse(ApiKeyObject, 'API keys, newest first (CONTRACT 4); never a secret.')
  async list(@MerchantModeCaller() caller: MerchantModeCaller, @Query() query: ListQueryDto) {
    const rows = await this.queries.apiKeys(caller.merchantId, caller.mode, {
      limit: query.limit,
      startingAfter: query.starting_after,
    });
    const now = this.clock.now();
    return toListResponse(rows, query.limit, (row) => toApiKeyObject(row, now));
  }

  @ApiOperation({ summary: 'Issue a restricted API key with scopes (shown once)' })
  @Post('restricted-api-keys')
  @Roles('owner')
  @IdempotentSecretIssuance()
  @ApiCreatedResponse({
    type: IssuedApiKey,
    description: 'A restricted key with its scopes; `secret_key` is shown this once.',
  })
  issueRestricted(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Body() body: RestrictedApiKeyDto,
    @NewIds() ids: NewIds,
  ) {
    return this.commands.issueApiKey(
      caller.merchantId,
      caller.mode,
      'restricted',
      body.scopes,
      ids.of('apiKey'),
    );
  }

  @ApiOperation({ summary: 'Roll an API key: a new secret, the old one expiring' })
  @ApiErrors('invalid_state')
  @Post('api-keys/:id/roll')
  @Roles('owner')
  @IdempotentSecretIssuance()
  @ApiParam({ name: 'id' })
  @ApiCreatedResponse({
    type: RolledApiKey,
    description: 'The new key (with `secret_key`, shown once) and `previous_key`.',
  })
  roll(
    @MerchantModeCaller() caller: MerchantModeCaller,
    @Param('id') id: string,
    @Body() body: RollApiKeyDto,
    @NewIds() ids: NewIds,
  ) {
    return this.commands.rollApiKey(
      caller.merchantId,
      caller.mode,
      id,
      body.grace_hours ?? 0,
      ids.of('apiKey'),
    );
  }

  @ApiOperation({ summary: 'Revoke an API key at once' })
  @ApiErrors('invalid_state')
  @Delete('api-keys/:id')
  @Roles('owner')
  @Idempotent({ required: true })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: ApiKeyObject, description: 'The revoked key.' })
  revoke(@MerchantModeCaller() caller: MerchantModeCaller, @Param('id') id: string) {
    return this.commands.revokeApiKey(caller.merchantId, caller.mode, id);
  }
}
