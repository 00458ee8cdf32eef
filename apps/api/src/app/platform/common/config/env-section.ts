import { plainToInstance, Transform } from 'class-transformer';
import {
  getMetadataStorage,
  IsBoolean,
  IsInt,
  IsUrl,
  Max,
  Min,
  validateSync,
} from 'class-validator';

/**
 * How environment variables are declared: each module has one class whose properties are its
 * variables, each declared once with its name (the property), default (the initializer),
 * description (the docstring) and class-validator rules (the decorators); a secret is marked by
 * appearing in `PRODUCTION_SECRETS` (`common/production-secrets.ts`). The module's `read…`
 * function next to it turns the validated variables into its typed section of `AppConfig`.
 * class-validator rather than zod: the API already validates with it (DTOs), and its messages
 * ('PORT must not be greater than 65535') are the ones operators have seen so far.
 */
export type EnvClass<T extends object = object> = new () => T;

/** `'42'` → 42; anything else is left for `@IsInt()` to refuse. */
export const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;

/** `true|1|yes` → true, `false|0|no` → false (any case); anything else is left for `@IsBoolean()` to refuse. */
export const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  if (/^(true|1|yes)$/i.test(value.trim())) return true;
  if (/^(false|0|no)$/i.test(value.trim())) return false;
  return value;
};

/** Refuses to start: 'Invalid configuration:' then one indented line per problem. */
export function invalidConfiguration(problems: readonly string[]): Error {
  return new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/**
 * Validates `env` against every section class (empty values count as unset).
 * @returns one validated instance per class, in the order given
 * @throws Error 'Invalid configuration:' listing every invalid variable with its rules' messages
 */
export function validateSections<const C extends readonly EnvClass[]>(
  classes: C,
  env: Record<string, string | undefined>,
): { [K in keyof C]: C[K] extends EnvClass<infer T> ? T : never } {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const problems: string[] = [];
  const sections = classes.map((section) => {
    const vars = plainToInstance(section, defined);
    for (const error of validateSync(vars, { whitelist: false })) {
      problems.push(`${error.property}: ${Object.values(error.constraints ?? {}).join(', ')}`);
    }
    return vars;
  });
  if (problems.length > 0) throw invalidConfiguration(problems);
  return sections as { [K in keyof C]: C[K] extends EnvClass<infer T> ? T : never };
}

/** A declared variable: its name and default (undefined when it has none). */
export interface DeclaredVariable {
  name: string;
  defaultValue: unknown;
}

/** Every variable a section class declares (the properties carrying validation rules), in order. */
export function declaredVariables(section: EnvClass): DeclaredVariable[] {
  const names = getMetadataStorage()
    .getTargetValidationMetadatas(section, '', true, false)
    .map((rule) => rule.propertyName);
  const defaults = new section() as Record<string, unknown>;
  return [...new Set(names)].map((name) => ({ name, defaultValue: defaults[name] }));
}

/**
 * An integer variable: `@Transform(toInt) @IsInt() @Min(min) [@Max(max)]` in one (same rules,
 * same messages).
 */
export function EnvInt(min: number, max?: number): PropertyDecorator {
  return (target, key) => {
    if (max !== undefined) Max(max)(target, key);
    Min(min)(target, key);
    IsInt()(target, key);
    Transform(toInt)(target, key);
  };
}

/** A boolean variable (`true|1|yes`, `false|0|no`): `@Transform(toBool) @IsBoolean()` in one. */
export function EnvBool(): PropertyDecorator {
  return (target, key) => {
    IsBoolean()(target, key);
    Transform(toBool)(target, key);
  };
}

/** An absolute URL variable with one of `protocols` (host names without a TLD allowed). */
export function EnvUrl(protocols: string[] = ['http', 'https']): PropertyDecorator {
  return IsUrl({ require_tld: false, require_protocol: true, protocols });
}
