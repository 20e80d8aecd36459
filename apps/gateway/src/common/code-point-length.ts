import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * A string of `min` to `max` characters counted as code points, as a person counts them: an
 * emoji or a letter outside the BMP is one character, where `Length` would count two UTF-16 units.
 */
export function CodePointLength(
  min: number,
  max: number,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'codePointLength',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const length = [...value].length;
          return length >= min && length <= max;
        },
        defaultMessage: () => `must be ${min} to ${max} characters`,
      },
    },
    options,
  );
}
