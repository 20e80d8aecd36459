import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, IdentityQueries, SessionAuth, type UserView } from '@xaalis/identity';
import { MeResponse } from './me.response';

@ApiTags('dashboard: me')
@Controller('dashboard/v1/me')
@SessionAuth()
export class MeController {
  constructor(private readonly queries: IdentityQueries) {}

  @ApiOperation({ summary: 'The signed-in user and their merchants' })
  @Get()
  @ApiOkResponse({ type: MeResponse, description: 'The user and their role in each merchant.' })
  async me(@CurrentUser() user: UserView): Promise<MeResponse> {
    const memberships = await this.queries.memberships(user.id);
    return {
      user,
      memberships: memberships.map((membership) => ({
        merchant_id: membership.merchantId,
        role: membership.role,
      })),
    };
  }
}
