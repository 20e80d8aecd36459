import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ID_PREFIXES, ulid, type IdKind } from '@xaalis/kernel';

const OBJECT_ULID = Symbol('xaalis:object-ulid');
type Reserving = { [OBJECT_ULID]?: string };

/** The idempotency layer hands the key's object ids to the request it lets run. */
export function reserveObjectIds(request: object, objectUlid: string): void {
  (request as Reserving)[OBJECT_ULID] = objectUlid;
}

/**
 * The ids of the objects a write creates (`ids.of('payment')` → `pay_…`). Under an idempotency
 * key they are fixed when the key is claimed, so every run of the key makes the same ids and a
 * retry after a crash finds what the first run made; without a key each request's are new. One
 * ULID body per request, each kind of object with its own prefix.
 */
export interface NewIds {
  of(kind: IdKind): string;
}

/**
 * `@NewIds() ids: NewIds` in a handler. The ids are read when `of` is called, inside the handler,
 * so after `@Idempotent` claimed the key (Nest resolves parameters before the handler runs).
 */
export const NewIds = createParamDecorator(
  (_data: unknown, context: ExecutionContext): NewIds =>
    new RequestIds(context.switchToHttp().getRequest<object>()),
);

class RequestIds implements NewIds {
  private own: string | undefined;

  constructor(private readonly request: object) {}

  of(kind: IdKind): string {
    const body = (this.request as Reserving)[OBJECT_ULID] ?? (this.own ??= ulid());
    return `${ID_PREFIXES[kind]}_${body}`;
  }
}
