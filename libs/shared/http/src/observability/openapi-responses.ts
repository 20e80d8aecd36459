import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath, type SchemaObject } from '@nestjs/swagger';

/**
 * A CONTRACT 4 list's 200 response: `{ object: 'list', data: Item[], has_more }`, `Item` a class
 * documented with `@ApiProperty` (a contract's reply class, a gateway response class) or a schema.
 */
export function ApiListResponse(item: Type<unknown> | SchemaObject, description: string) {
  const documented = typeof item === 'function';
  return applyDecorators(
    ...(documented ? [ApiExtraModels(item)] : []),
    ApiOkResponse({
      description,
      schema: {
        type: 'object',
        required: ['object', 'data', 'has_more'],
        properties: {
          object: { type: 'string', enum: ['list'] },
          data: { type: 'array', items: documented ? { $ref: getSchemaPath(item) } : item },
          has_more: { type: 'boolean' },
        },
      },
    }),
  );
}
