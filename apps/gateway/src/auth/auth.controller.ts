import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RateLimit } from '@xaalis/http';
import { AuthService, callerOf, SessionAuth, type UserView } from '@xaalis/identity';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignInDto } from './sign-in.dto';
import { SignUpDto } from './sign-up.dto';

/**
 * CONTRACT 5 sign-up / sign-in / sign-out. better-auth does the work (`auth.api.*`); its session
 * cookie is forwarded as it made it (`better-auth.session_token`, HttpOnly, SameSite=Lax, Secure
 * over https). Rate-limited per IP: these are the routes a password guesser would hammer.
 */
@ApiTags('dashboard: auth')
@Controller('dashboard/v1/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @ApiOperation({ summary: 'Sign up: create a dashboard user and open a session', security: [] })
  @Post('sign-up')
  @RateLimit('ip')
  @ApiCreatedResponse({ description: '`{user}`; sets the session cookie.' })
  async signUp(
    @Body() body: SignUpDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ user: UserView }> {
    const { user, setCookies } = await this.auth.signUp(body, callerOf(request));
    reply.header('set-cookie', setCookies);
    return { user };
  }

  @ApiOperation({ summary: 'Sign in to the dashboard', security: [] })
  @Post('sign-in')
  @HttpCode(200)
  @RateLimit('ip')
  @ApiOkResponse({ description: '`{user}`; sets the session cookie. A wrong password is a 401.' })
  async signIn(
    @Body() body: SignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ user: UserView }> {
    const { user, setCookies } = await this.auth.signIn(body, callerOf(request));
    reply.header('set-cookie', setCookies);
    return { user };
  }

  @ApiOperation({ summary: 'Sign out: end the session' })
  @Post('sign-out')
  @HttpCode(204)
  @SessionAuth()
  @ApiNoContentResponse({
    description: 'The session is deleted server-side and the cookie cleared.',
  })
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    reply.header('set-cookie', await this.auth.signOut(callerOf(request)));
  }
}
