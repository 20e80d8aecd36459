import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Idempotent } from '@xaalis/http';
import {
  AddedMember,
  CreatedMerchant,
  CurrentUser,
  IdentityCommands,
  MerchantCaller,
  Roles,
  SessionAuth,
  type UserView,
} from '@xaalis/identity';
import { AddMemberDto } from './add-member.dto';
import { CreateMerchantDto } from './create-merchant.dto';

@ApiTags('dashboard: merchants')
@Controller('dashboard/v1/merchants')
@SessionAuth()
export class MerchantsController {
  constructor(private readonly commands: IdentityCommands) {}

  /**
   * Not idempotent on purpose: with no merchant yet, a key would be scoped to nobody, and a replay
   * would hand one caller's webhook secret to another.
   */
  @ApiOperation({ summary: 'Create a merchant (its webhook secret shown once)' })
  @Post()
  @ApiCreatedResponse({
    type: CreatedMerchant,
    description: 'The merchant; `webhook_secret` is shown this once. The caller becomes owner.',
  })
  create(@CurrentUser() user: UserView, @Body() body: CreateMerchantDto): Promise<CreatedMerchant> {
    return this.commands.createMerchant(user.id, body.name);
  }

  @ApiOperation({ summary: 'Add a member to a merchant' })
  @ApiErrors('invalid_state')
  @Post(':merchantId/members')
  @Roles('owner')
  @Idempotent({ required: false })
  @ApiParam({ name: 'merchantId' })
  @ApiCreatedResponse({ type: AddedMember, description: 'The membership.' })
  addMember(
    @MerchantCaller() caller: MerchantCaller,
    @Body() body: AddMemberDto,
  ): Promise<AddedMember> {
    return this.commands.addMember(caller.merchantId, body.email, body.role);
  }
}
