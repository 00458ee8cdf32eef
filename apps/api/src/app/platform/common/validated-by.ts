import { HttpStatus } from '@nestjs/common';
import { GroveException } from './grove.exception';

/**
 * A contracts validator as the API applies it (docs/architecture.md#request-path, step 3): the request's
 * DTO instance (after class-transformer, so trimmed fields are trimmed) → one message per invalid
 * field (`{ field: message }`, empty when valid), or the one message of a form that answers a
 * single message (signup), or `null` when valid.
 */
export type ContractCheck<T> = (
  input: T,
) => Readonly<Record<string, string | undefined>> | string | null;

const RULES = new WeakMap<object, ContractCheck<never>[]>();

/** Adds `check` to the contract rules of the DTO class `target` (its subclasses inherit them). */
export function addContractRule<T>(target: object, check: ContractCheck<T>): void {
  RULES.set(target, [...(RULES.get(target) ?? []), check as ContractCheck<never>]);
}

/**
 * The contract rules of a DTO class and of the classes it extends, base class first; empty for a
 * class without any (or a primitive).
 */
export function contractRulesOf(metatype: unknown): readonly ContractCheck<never>[] {
  const chain: ContractCheck<never>[][] = [];
  for (
    let type = metatype;
    typeof type === 'function' && type !== Function.prototype;
    type = Object.getPrototypeOf(type)
  )
    chain.unshift(RULES.get(type) ?? []);
  return chain.flat();
}

/**
 * The one way the API checks a request against the product's rules: the DTO class names the
 * contracts function (libs/shared/contracts, the same one the web form runs through
 * `useContractForm`), e.g.
 * `@ValidatedBy(validateMemberInput) export class MemberFieldsDto { … }`. The global pipe
 * (`createValidationPipe`) runs it on every body or query of that class (and of its subclasses)
 * after the DTO's shape checks, and answers 400 `ContractViolationException`:
 * `{ statusCode: 400, message: <first field's message>, fieldErrors }`, or `{ statusCode: 400,
 * message }` for a check that answers one message. The DTO itself keeps only what the OpenAPI
 * document needs (`@ApiProperty`, `@Allow()` so the whitelist keeps the field, trimming).
 * @param check the contracts validator; it receives the fields as sent (any JSON type)
 */
export function ValidatedBy<T>(
  check: ContractCheck<T>,
): (target: abstract new (...args: never[]) => T) => void {
  return (target) => addContractRule(target, check);
}

/** A request broke a contracts rule (`@ValidatedBy`). → 400 with the rule's message(s). */
export class ContractViolationException extends GroveException {
  override readonly status = HttpStatus.BAD_REQUEST;
}

/**
 * Runs the contract rules of `metatype` on `value` (a transformed DTO instance).
 * @throws ContractViolationException when a rule fails: the first single-message answer, else
 *   every field message of every rule (first one as `message`)
 */
export function applyContractRules(metatype: unknown, value: unknown): void {
  const fieldErrors: Record<string, string> = {};
  for (const check of contractRulesOf(metatype)) {
    const result = (check as ContractCheck<unknown>)(value);
    if (typeof result === 'string') throw new ContractViolationException(result);
    for (const [field, message] of Object.entries(result ?? {}))
      if (message && !(field in fieldErrors)) fieldErrors[field] = message;
  }
  const [first] = Object.values(fieldErrors);
  if (first !== undefined) throw new ContractViolationException(first, fieldErrors);
}
