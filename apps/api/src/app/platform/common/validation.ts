import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError,
} from '@nestjs/common';
import type { ApiErrorBody } from '@grove/contracts';
import { LRUCache } from 'lru-cache';
import { applyContractRules } from './validated-by';

/**
 * The query strings of a query DTO class whose validated DTO the global pipe keeps, most recently
 * used first (`ContractValidationPipe`), and the longest kept (characters of the query as JSON):
 * at most 500 × 2 KB a class, about 1 MB; a longer query is validated every time.
 */
export const VALIDATED_QUERY_CACHE = { entries: 500, keyChars: 2_048 } as const;

/**
 * Turns class-validator errors into the `ApiErrorBody` shape: `message` is the first field's
 * message, `fieldErrors` has one message per field (the first failed rule of that field).
 */
export function validationErrorBody(errors: ValidationError[]): ApiErrorBody {
  const fieldErrors: Record<string, string> = {};
  const collect = (list: ValidationError[], prefix: string): void => {
    for (const error of list) {
      const field = prefix + error.property;
      const first = Object.values(error.constraints ?? {})[0];
      if (first && !(field in fieldErrors)) fieldErrors[field] = first;
      if (error.children?.length) collect(error.children, `${field}.`);
    }
  };
  collect(errors, '');
  const message = Object.values(fieldErrors)[0] ?? 'Invalid request';
  return { statusCode: 400, message, fieldErrors };
}

/**
 * The global pipe, the one validation path of a request: first the DTO's shape (class-validator:
 * whitelist, forbid unknown fields, transform), then the contracts rules the DTO class names with
 * `@ValidatedBy` (`applyContractRules`). Errors as `ApiErrorBody` (400).
 */
export class ContractValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new BadRequestException(validationErrorBody(errors)),
    });
  }

  /** Validated query DTOs by DTO class, then by the query as JSON (`validatedQueryKey`). */
  private readonly validatedQueries = new WeakMap<object, LRUCache<string, object>>();

  /**
   * Validates and transforms `value` (400 `ApiErrorBody` when invalid). A query DTO (`@Query()`
   * of a class) that passed once for the same query string is answered from the pipe's memory
   * (`VALIDATED_QUERY_CACHE`), a copy each time: class-validator walked every DTO's metadata on
   * every list request, the same few query strings over and over (issue 36,
   * docs/decisions/list-pages-against-their-own-sql.md). A query that fails is never kept.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const key = validatedQueryKey(value, metadata);
    const cache = key === null ? undefined : this.queryCache(metadata.metatype as object);
    const kept = key === null ? undefined : cache?.get(key);
    if (kept !== undefined) return copyOfDto(kept);
    const result: unknown = await super.transform(value, metadata);
    if (metadata.type !== 'custom') applyContractRules(metadata.metatype, result);
    if (key !== null && cache && typeof result === 'object' && result !== null)
      cache.set(key, copyOfDto(result));
    return result;
  }

  private queryCache(metatype: object): LRUCache<string, object> {
    let cache = this.validatedQueries.get(metatype);
    if (!cache) {
      cache = new LRUCache({ max: VALIDATED_QUERY_CACHE.entries });
      this.validatedQueries.set(metatype, cache);
    }
    return cache;
  }
}

/**
 * The key a query's validated DTO is kept under: the query's parameters as JSON (Express's query
 * parser gives strings and arrays of strings), or null when it is not kept: not a whole query
 * (`@Query()`) of a DTO class, or longer than `VALIDATED_QUERY_CACHE.keyChars`.
 */
function validatedQueryKey(value: unknown, metadata: ArgumentMetadata): string | null {
  const { metatype } = metadata;
  if (metadata.type !== 'query' || metadata.data !== undefined) return null;
  if (typeof metatype !== 'function' || metatype === Object) return null;
  if (typeof value !== 'object' || value === null) return null;
  const key = JSON.stringify(value);
  return key.length <= VALIDATED_QUERY_CACHE.keyChars ? key : null;
}

/** A copy of a validated DTO: same class, own fields copied, arrays copied (a handler may change them). */
function copyOfDto(dto: object): object {
  const copy = Object.create(Object.getPrototypeOf(dto) as object | null) as Record<
    string,
    unknown
  >;
  for (const [field, value] of Object.entries(dto))
    copy[field] = Array.isArray(value) ? [...(value as unknown[])] : value;
  return copy;
}

/** The global pipe (`ContractValidationPipe`). */
export function createValidationPipe(): ValidationPipe {
  return new ContractValidationPipe();
}
