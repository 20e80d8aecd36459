import { type ArgumentMetadata, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { DomainError, validationError } from '@xaalis/kernel';
import { toFieldIssues } from './field-issues';

/** The settings of the one global pipe (see createValidationPipe). */
const PIPE_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
  // The value is kept for toFieldIssues (an absent field is `is required`), never sent back.
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => validationError(toFieldIssues(errors)),
} satisfies ValidationPipeOptions;

/**
 * The one global pipe (STYLE 7, as ghostfolio's main.ts): unknown fields are errors, DTOs become
 * class instances, and JSON types are never coerced: `"100"` for an integer is a 400. Query DTOs
 * convert strings explicitly with `@Type(() => Number)` where they need it (see ListQueryDto).
 */
export function createValidationPipe(): ValidationPipe {
  return new XaalisValidationPipe(PIPE_OPTIONS);
}

/**
 * Nest's pipe, after one check of its own: class-transformer turns a JSON array or scalar sent as a body into something class-validator
 * reports without a field name; such a body is refused first, in plain words. A missing body is
 * left to the DTO, whose required fields then say what is missing.
 */
class XaalisValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const absent = value === undefined || value === null;
    if (metadata.type === 'body' && this.toValidate(metadata) && !absent && !isJsonObject(value)) {
      throw new DomainError('validation_error', 'The request body must be a JSON object.');
    }
    return super.transform(value, metadata);
  }
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
