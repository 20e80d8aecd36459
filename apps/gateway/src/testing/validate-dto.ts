import type { Type } from '@nestjs/common';
import { createValidationPipe } from '@xaalis/http';
import { DomainError, type FieldIssue } from '@xaalis/kernel';

const pipe = createValidationPipe();

/**
 * Runs a DTO through the gateway's one global pipe, as a request's body or query would be: the
 * DTO instance when it passes, or the CONTRACT 2 issues (field and issue) when it does not.
 */
export async function validateDto<T>(
  metatype: Type<T>,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<{ dto: T } | { issues: FieldIssue[] }> {
  try {
    return { dto: (await pipe.transform(value, { type, metatype, data: undefined })) as T };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'validation_error') {
      return { issues: error.details as FieldIssue[] };
    }
    throw error;
  }
}

/** The fields a refused value names, in order; [] when it passes. */
export async function refusedFields<T>(
  metatype: Type<T>,
  value: unknown,
  type: 'body' | 'query' = 'body',
): Promise<string[]> {
  const result = await validateDto(metatype, value, type);
  return 'issues' in result ? result.issues.map((issue) => issue.field) : [];
}
