import { ValidateIf } from 'class-validator';

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
