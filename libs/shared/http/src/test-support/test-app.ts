import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Global,
  HttpCode,
  Injectable,
  Module,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CLOCK, CONFIG, loadConfig, PG_POOL, type XaalisConfig } from '@xaalis/config';
import { type Clock, DomainError, type ErrorCode, isErrorCode, isMode } from '@xaalis/kernel';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { freePort } from '@xaalis/database';
import type { HttpEdgeOptions } from '../http-edge.options';
import { HttpEdgeModule } from '../http-edge.module';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { NewIds } from '../idempotency/new-ids';
import { ListQueryDto } from '../pagination/list-query.dto';
import { requireCursor, toListResponse } from '../pagination/list-response';
import { RateLimit } from '../rate-limit/rate-limit.guard';
import type { RequestContext } from '../request-context';
import { configureHttpApp } from '../fastify/configure-http-app';
import { createFastifyAdapter } from '../fastify/fastify-adapter';
import { setupOpenApi } from '../observability/openapi';
import { IsHttpsUrl, IsMetadata, IsPhone } from '../validation/validators';

/** A small app on the real edge: routes that exercise each error, idempotency and rate path. */

export class TestCustomerDto {
  @ApiProperty({ example: '+221770000001' })
  @IsPhone()
  phone!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

export class TestItemDto {
  @ApiProperty()
  @IsInt()
  @Min(1)
  quantity!: number;
}

export class CreateTestThingDto {
  @ApiProperty({ minimum: 1, maximum: 100_000_000 })
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  amount!: number;

  @ApiPropertyOptional({ type: TestCustomerDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => TestCustomerDto)
  customer?: TestCustomerDto;

  @ApiPropertyOptional({ type: [TestItemDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TestItemDto)
  items?: TestItemDto[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;

  @ApiPropertyOptional()
  @IsOptional()
  @IsHttpsUrl()
  webhook_url?: string;
}

/** Counts handler runs, so tests can tell a replay from a second execution. */
export class HandlerRuns {
  count = 0;
}

/** Stands in for the real auth guards: the context comes from test headers. */
@Injectable()
class TestAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & { xaalis?: RequestContext }>();
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const keyId = header('x-test-key');
    const mode = header('x-test-mode') ?? 'test';
    request.xaalis = {
      credential: keyId ? { kind: 'secret_key', keyId } : { kind: 'anonymous' },
      merchantId: header('x-test-merchant'),
      mode: isMode(mode) ? mode : 'test',
      ip: request.ip,
    };
    return true;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Controller('test')
@UseGuards(TestAuthGuard)
class TestController {
  constructor(private readonly runs: HandlerRuns) {}

  @Post('things')
  @Idempotent({ required: true })
  async create(@Body() body: CreateTestThingDto, @Query('delay_ms') delayMs?: string) {
    this.runs.count += 1;
    if (delayMs) await sleep(Number(delayMs));
    return {
      object: 'thing',
      id: `thing_${this.runs.count}`,
      amount: body.amount,
      run: this.runs.count,
    };
  }

  @Post('validate')
  validate(@Body() body: CreateTestThingDto) {
    return { amount: body.amount, customer: body.customer, items: body.items };
  }

  @Post('other-things')
  @Idempotent({ required: true })
  createOther(@Body() body: CreateTestThingDto) {
    this.runs.count += 1;
    return { object: 'other_thing', amount: body.amount };
  }

  @Post('optional-key')
  @Idempotent({ required: false })
  optionalKey() {
    this.runs.count += 1;
    return { run: this.runs.count };
  }

  @Post('empty')
  @HttpCode(204)
  @Idempotent({ required: true })
  empty(): void {
    this.runs.count += 1;
  }

  /** Fails with the DomainError code in the path, after counting the run. */
  @Post('fail/:code')
  @Idempotent({ required: false })
  fail(@Param('code') code: string): never {
    this.runs.count += 1;
    if (!isErrorCode(code)) throw new Error(`not a code: ${code}`);
    const details =
      code === 'rate_limited'
        ? { retry_after: 7 }
        : code === 'policy_violation'
          ? { rule: 'max_payout_amount' }
          : undefined;
    throw new DomainError(code as ErrorCode, `failed with ${code}`, details);
  }

  /** What it creates is named by `NewIds`; `?fail=1` fails it after that, as a crash would. */
  @Post('made')
  @Idempotent({ required: false })
  made(@NewIds() ids: NewIds, @Query('fail') fail?: string) {
    this.runs.count += 1;
    const id = ids.of('payment');
    if (fail === '1') throw new Error(`made ${id}, then failed`);
    return { id, same: ids.of('payment') === id, refund: ids.of('refund') };
  }

  @Post('boom')
  @Idempotent({ required: false })
  boom(): never {
    this.runs.count += 1;
    throw new Error(
      'SELECT card_number FROM internal_secrets failed: relation "internal_secrets" does not exist',
    );
  }

  /** A query through node-postgres to a port nothing listens on: a database out of reach. */
  @Get('unreachable-database')
  async unreachableDatabase(): Promise<never> {
    const pool = new Pool({ host: '127.0.0.1', port: await freePort(), max: 1 });
    try {
      await pool.query('SELECT 1');
    } finally {
      await pool.end();
    }
    throw new Error('A database on a port nothing listens on answered');
  }

  @Get('boom')
  boomGet(): never {
    throw new TypeError("Cannot read properties of undefined (reading 'ledgerRepository')");
  }

  /** Echoes how long the id it was given is: tells a refused path from one that got through. */
  @Get('things/:id')
  thing(@Param('id') id: string) {
    return { id_length: id.length };
  }

  @Get('list')
  list(@Query() query: ListQueryDto) {
    const ids = Array.from({ length: 30 }, (_, i) => `obj_${String(30 - i).padStart(2, '0')}`);
    let from = 0;
    if (query.starting_after !== undefined) {
      const cursor = requireCursor(
        ids.indexOf(query.starting_after) === -1 ? undefined : ids.indexOf(query.starting_after),
        query.starting_after,
      );
      from = cursor + 1;
    }
    return toListResponse(ids.slice(from, from + query.limit + 1), query.limit, (id) => ({ id }));
  }

  @Get('public')
  @RateLimit('ip')
  publicRoute() {
    return { ok: true };
  }

  @Get('keyed')
  @RateLimit('credential')
  keyedRoute() {
    return { ok: true };
  }
}

export interface TestAppOptions {
  pool?: Pool;
  config?: Partial<XaalisConfig>;
  edge?: Partial<HttpEdgeOptions>;
  clock?: Clock;
  /** Swagger UI needs @fastify/static, which jest can load only with its ESM deps transformed. */
  docsUi?: boolean;
}

/** Never queried in suites without Postgres; a query is a test bug, said plainly. */
const noDatabase = {
  query: () => Promise.reject(new Error('This test app has no database')),
} as unknown as Pool;

export async function createTestApp(options: TestAppOptions = {}): Promise<NestFastifyApplication> {
  const config: XaalisConfig = { ...loadConfig({}), ...options.config };
  const infra = [
    { provide: CONFIG, useValue: config },
    { provide: PG_POOL, useValue: options.pool ?? noDatabase },
    ...(options.clock ? [{ provide: CLOCK, useValue: options.clock }] : []),
  ];
  /** What the composition root provides every module. */
  @Global()
  @Module({ providers: infra, exports: infra.map((provider) => provider.provide) })
  class TestInfraModule {}

  @Module({
    imports: [
      TestInfraModule,
      HttpEdgeModule.forRoot({ idempotencyCleanupIntervalMs: 0, ...options.edge }),
    ],
    controllers: [TestController],
    providers: [HandlerRuns],
  })
  class TestAppModule {}

  const app = await NestFactory.create<NestFastifyApplication>(
    TestAppModule,
    createFastifyAdapter(),
    {
      logger: false,
    },
  );
  configureHttpApp(app);
  setupOpenApi(app, { ui: options.docsUi ?? false });
  await app.init();
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

/** The base URL of a listening test app. */
export function baseUrlOf(app: NestFastifyApplication): string {
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string')
    throw new Error('The test app is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}
