import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * Validates a DTO field with one of the shared rules from `@grove/contracts` (the same functions
 * the web forms use), failing with that rule's SPEC message.
 *
 * @param check the contracts validator, e.g. `isValidName`
 * @param message the SPEC message, e.g. `MESSAGES.invalidName`
 * @param acceptNumbers also accept JSON numbers (for dollar amounts)
 */
export function FollowsRule(
  check: (value: string) => boolean,
  message: string,
  acceptNumbers = false,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: `follows:${check.name}`,
      validator: {
        validate: (value: unknown): boolean =>
          typeof value === 'string' ||
          (acceptNumbers && typeof value === 'number' && Number.isFinite(value))
            ? check(String(value))
            : false,
        defaultMessage: (): string => message,
      },
    },
    options,
  );
}

/** class-transformer helper: trims strings, leaves everything else as sent. */
export const trimString = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/**
 * A field a PATCH body may leave out (then its rules are skipped), unlike `@IsOptional()`, which
 * also skips them for `null`: a `null` here runs the field's rules and fails with its message
 * (400), so a required column is never written as NULL.
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
