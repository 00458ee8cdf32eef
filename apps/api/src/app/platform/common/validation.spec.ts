import type { ValidationError } from '@nestjs/common';
import { validationErrorBody } from './validation';

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
