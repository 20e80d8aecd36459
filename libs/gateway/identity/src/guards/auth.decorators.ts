import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth } from '@nestjs/swagger';
import { OPENAPI_BEARER, OPENAPI_SESSION } from '@xaalis/http';
import { ApiKeyGuard } from './api-key.guard';
import { SessionGuard } from './session.guard';

/** `/v1/...`: `Authorization: Bearer <key>`. */
export const ApiKeyAuth = () =>
  applyDecorators(UseGuards(ApiKeyGuard), ApiBearerAuth(OPENAPI_BEARER));

/** `/dashboard/v1/...`: the session cookie. */
export const SessionAuth = () =>
  applyDecorators(UseGuards(SessionGuard), ApiCookieAuth(OPENAPI_SESSION));
