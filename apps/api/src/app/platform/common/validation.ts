import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type ValidationError,
} from '@nestjs/common';
import type { ApiErrorBody } from '@grove/contracts';
import { applyContractRules } from './validated-by';

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

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const result: unknown = await super.transform(value, metadata);
    if (metadata.type !== 'custom') applyContractRules(metadata.metatype, result);
    return result;
  }
}

/** The global pipe (`ContractValidationPipe`). */
export function createValidationPipe(): ValidationPipe {
  return new ContractValidationPipe();
}
