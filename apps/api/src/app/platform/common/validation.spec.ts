import type { ArgumentMetadata, ValidationError } from '@nestjs/common';
import { IsOptional, IsString, ValidateBy } from 'class-validator';
import { ContractValidationPipe, VALIDATED_QUERY_CACHE, validationErrorBody } from './validation';

const error = (property: string, constraints: Record<string, string>): ValidationError => ({
  property,
  constraints,
  children: [],
});

describe('validationErrorBody', () => {
  it('gives the first message of each field, and the first field as the message', () => {
    expect(
      validationErrorBody([
        error('memberName', { follows: 'Not a valid name', other: 'ignored' }),
        error('discount', { follows: 'Not a valid discount price' }),
      ]),
    ).toEqual({
      statusCode: 400,
      message: 'Not a valid name',
      fieldErrors: { memberName: 'Not a valid name', discount: 'Not a valid discount price' },
    });
  });
});

describe('ContractValidationPipe: a query DTO validated once per query string', () => {
  let checks = 0;
  /** A rule that counts how often class-validator runs it. */
  const Counted = () =>
    ValidateBy({
      name: 'counted',
      validator: {
        validate: (value: unknown) => {
          checks += 1;
          return value === undefined || (typeof value === 'string' && value !== 'bad');
        },
        defaultMessage: () => 'Not a valid status',
      },
    });
  class StatusQueryDto {
    @IsOptional()
    @Counted()
    status?: string;

    @IsOptional()
    @IsString({ each: true })
    tags?: string[];
  }
  class OtherQueryDto {
    @IsOptional()
    @Counted()
    status?: string;
  }
  const query = (metatype: ArgumentMetadata['metatype'], data?: string): ArgumentMetadata => ({
    type: 'query',
    metatype,
    data,
  });

  beforeEach(() => {
    checks = 0;
  });

  it('validates a query string once: later requests get an equal copy of its DTO, never the same object', async () => {
    const pipe = new ContractValidationPipe();
    const first = (await pipe.transform(
      { status: 'Active', tags: ['a', 'b'] },
      query(StatusQueryDto),
    )) as StatusQueryDto;
    first.tags?.push('changed by a handler');
    const second = (await pipe.transform(
      { status: 'Active', tags: ['a', 'b'] },
      query(StatusQueryDto),
    )) as StatusQueryDto;
    expect(checks).toBe(1);
    expect(second).toBeInstanceOf(StatusQueryDto);
    expect(second).toEqual({ status: 'Active', tags: ['a', 'b'] });
    expect(second).not.toBe(first);
  });

  it('refuses a bad query with its message every time, never keeping it', async () => {
    const pipe = new ContractValidationPipe();
    for (let attempt = 0; attempt < 2; attempt++)
      await expect(pipe.transform({ status: 'bad' }, query(StatusQueryDto))).rejects.toMatchObject({
        response: { statusCode: 400, message: 'Not a valid status' },
      });
    expect(checks).toBe(2);
  });

  it('keeps each DTO class apart, and validates a single parameter, a body or a long query every time', async () => {
    const pipe = new ContractValidationPipe();
    await pipe.transform({ status: 'Active' }, query(StatusQueryDto));
    await pipe.transform({ status: 'Active' }, query(OtherQueryDto));
    expect(checks).toBe(2);
    const long = { status: 'x'.repeat(VALIDATED_QUERY_CACHE.keyChars) };
    await pipe.transform(long, query(StatusQueryDto));
    await pipe.transform(long, query(StatusQueryDto));
    expect(checks).toBe(4);
    for (let attempt = 0; attempt < 2; attempt++)
      await pipe.transform({ status: 'Active' }, { type: 'body', metatype: StatusQueryDto });
    expect(checks).toBe(6);
  });
});
