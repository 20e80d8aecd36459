import { Body, HttpCode, Post, SetMetadata } from '@nestjs/common';
import { HTTP_CODE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Idempotent } from './idempotent.decorator';
import { IDEMPOTENT } from './idempotent.metadata';

class Dto {
  amount!: number;
}

class Routes {
  @Post('things')
  @HttpCode(202)
  @Idempotent({ required: true })
  @SetMetadata('below', 'kept')
  create(@Body() body: Dto) {
    return { amount: body.amount, self: this instanceof Routes };
  }
}

describe('@Idempotent', () => {
  const handler = Routes.prototype.create as unknown as (...args: unknown[]) => unknown;

  it('keeps what the decorators above and below it put on the handler', () => {
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler)).toBe(202);
    expect(Reflect.getMetadata('below', handler)).toBe('kept');
    expect(Reflect.getMetadata(IDEMPOTENT, handler)).toEqual({ required: true });
    expect(handler.name).toBe('create');
  });

  it('asks Nest for the request and reply after the handler’s own arguments', () => {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Routes, 'create') as Record<
      string,
      { index: number }
    >;
    expect(Object.entries(args).map(([key, { index }]) => [key.split(':')[0], index])).toEqual(
      expect.arrayContaining([
        [String(RouteParamtypes.BODY), 0],
        [String(RouteParamtypes.REQUEST), 1],
        [String(RouteParamtypes.RESPONSE), 2],
      ]),
    );
    expect(Object.keys(args)).toHaveLength(3);
  });
});
