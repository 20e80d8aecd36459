import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, IdentityQueries, SessionAuth, type UserView } from '@xaalis/identity';

@ApiTags('dashboard: me')
@Controller('dashboard/v1/me')
@SessionAuth()
export class MeController {
  constructor(private readonly queries: IdentityQueries) {}

  @ApiOperation({ summary: 'The signed-in user and their merchants' })
  @Get()
  @ApiOkResponse({ description: '`{user, memberships: [{merchant_id, role}]}`' })
  async me(@CurrentUser() user: UserView) {
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
