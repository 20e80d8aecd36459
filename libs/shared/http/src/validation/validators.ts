import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches, ValidateBy, type ValidationOptions } from 'class-validator';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
} from '@xaalis/kernel';

/** Defined once in the kernel, beside the other bounds DTOs, messages and deciders share. */
export {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_KEYS,
  METADATA_VALUE_MAX_LENGTH,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
};

export function IsPhone(options?: ValidationOptions): PropertyDecorator {
  return Matches(PHONE_PATTERN, {
    message: 'must be a Senegalese mobile number: +2217 followed by 8 digits',
    ...options,
  });
}

/** An idempotency key carried in a body or a header DTO: 1 to 255 characters. */
export function IsIdempotencyKey(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    IsString(options),
    Length(1, IDEMPOTENCY_KEY_MAX_LENGTH, {
      message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      ...options,
    }),
  );
}

/**
 * Metadata (spec 4.1): an object of string values of at most 500 characters. Keys are bounded too
 * (at most 50, each 1 to 40 characters), so a client cannot store arbitrary documents in it.
 */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === undefined,
        defaultMessage: (args) => metadataProblem(args?.value) ?? 'must be an object of strings',
      },
    },
    options,
  );
}

export function metadataProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be an object whose values are strings';
  }
  const entries = Object.entries(value);
  if (entries.length > METADATA_MAX_KEYS) return `must have at most ${METADATA_MAX_KEYS} keys`;
  for (const [key, item] of entries) {
    if (key.length < 1 || key.length > METADATA_KEY_MAX_LENGTH) {
      return `keys must be 1 to ${METADATA_KEY_MAX_LENGTH} characters`;
    }
    if (typeof item !== 'string') return `value of "${key}" must be a string`;
    if (item.length > METADATA_VALUE_MAX_LENGTH) {
      return `value of "${key}" must be at most ${METADATA_VALUE_MAX_LENGTH} characters`;
    }
  }
  return undefined;
}

/** An absolute `https://` URL with a host (webhook targets, CONTRACT 9). */
export function IsHttpsUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpsUrl',
      validator: {
        validate: (value: unknown) => isHttpsUrl(value),
        defaultMessage: () => `must be an https:// URL of at most ${URL_MAX_LENGTH} characters`,
      },
    },
    options,
  );
}

export function isHttpsUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return false;
  try {
    const url = new URL(value);
    // Credentials in a URL would be stored and shown back to every dashboard member.
    return (
      url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}
