import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  MESSAGES,
  PAGE_MAX,
  PAGE_SIZE_MAX,
  SEARCH_MAX_LENGTH,
  validateSearchInput,
} from '@grove/contracts';
import { trimString } from './contract-rule.decorator';
import { addContractRule } from './validated-by';

/** Default page size of every list endpoint. */
export const DEFAULT_PAGE_SIZE = 50;

/**
 * Query-string digits (at most 7, so `PAGE_MAX` fits) → number; anything else (`1e21`, `1.5`,
 * `0x10`, twenty digits, a repeated parameter) stays as sent and fails `@IsInt`.
 */
const digitsToNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : value;

/**
 * Paging of every list endpoint: 1-based `page` (1–1,000,000, `PAGE_MAX`), `pageSize` 1–100
 * (default 50), both plain digits. Anything else → 400 `MESSAGES.pageInvalid` /
 * `MESSAGES.pageSizeInvalid`.
 */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_MAX, default: 1 })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsInt({ message: MESSAGES.pageInvalid })
  @Min(1, { message: MESSAGES.pageInvalid })
  @Max(PAGE_MAX, { message: MESSAGES.pageInvalid })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_SIZE_MAX, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(digitsToNumber)
  @IsInt({ message: MESSAGES.pageSizeInvalid })
  @Min(1, { message: MESSAGES.pageSizeInvalid })
  @Max(PAGE_SIZE_MAX, { message: MESSAGES.pageSizeInvalid })
  pageSize?: number;
}

/**
 * The optional `search` query parameter of the list endpoints: trimmed, then checked by
 * contracts' `validateSearchInput` (text of at most 200 characters without control characters),
 * which this adds to the query DTO's contract rules (`@ValidatedBy`). Anything else → 400
 * `MESSAGES.searchInvalid`.
 */
export function SearchQuery(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description, maxLength: SEARCH_MAX_LENGTH }),
    IsOptional(),
    Transform(trimString),
    (target: object) => addContractRule(target.constructor, validateSearchInput),
  );
}
