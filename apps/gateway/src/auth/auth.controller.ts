import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, RateLimit } from '@xaalis/http';
import { AuthService, callerOf, SessionAuth } from '@xaalis/identity';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthResponse } from './auth.response';
import { SignInDto } from './sign-in.dto';
import { SignUpDto } from './sign-up.dto';

const SETS_SESSION_COOKIE = {
  'Set-Cookie': {
    description: '`better-auth.session_token`: HttpOnly, SameSite=Lax, 7 days, Secure over https',
    schema: { type: 'string' },
  },
};

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
  @ApiCreatedResponse({
    type: AuthResponse,
    description: 'The new user, signed in: sets the session cookie.',
    headers: SETS_SESSION_COOKIE,
  })
  async signUp(
    @Body() body: SignUpDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    const { user, setCookies } = await this.auth.signUp(body, callerOf(request));
    reply.header('set-cookie', setCookies);
    return { user };
  }

  @ApiOperation({ summary: 'Sign in to the dashboard', security: [] })
  @ApiErrors('authentication_required')
  @Post('sign-in')
  @HttpCode(200)
  @RateLimit('ip')
  @ApiOkResponse({
    type: AuthResponse,
    description: 'The user: sets the session cookie. A wrong password is a 401.',
    headers: SETS_SESSION_COOKIE,
  })
  async signIn(
    @Body() body: SignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
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
    headers: {
      'Set-Cookie': {
        description: "better-auth's cookies, expired (`Max-Age=0`)",
        schema: { type: 'string' },
      },
    },
  })
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    reply.header('set-cookie', await this.auth.signOut(callerOf(request)));
  }
}
