import { Allow } from 'class-validator';
import { ContractValidationPipe } from './validation';
import { ContractViolationException, ValidatedBy } from './validated-by';

const named = (input: { name?: unknown }) =>
  typeof input.name === 'string' && input.name !== '' ? {} : { name: 'Not a valid name' };

@ValidatedBy(named)
class NamedDto {
  @Allow()
  name!: string;
}

@ValidatedBy((input: ChildDto) => (input.code === 'ok' ? null : 'Wrong code'))
class ChildDto extends NamedDto {
  @Allow()
  code!: string;
}

const pipe = new ContractValidationPipe();
const body = (metatype: new () => unknown) => ({ type: 'body' as const, metatype });

/** The reply the pipe's failure would answer. */
async function reply(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return (error as ContractViolationException).toResponse();
  }
  return 'passed';
}

describe('ValidatedBy and the global pipe (the one validation path)', () => {
  it('runs the contracts function of the DTO class and answers 400 with its field messages', async () => {
    expect(await reply(pipe.transform({ name: 42 }, body(NamedDto)))).toEqual({
      statusCode: 400,
      message: 'Not a valid name',
      fieldErrors: { name: 'Not a valid name' },
    });
    expect(await pipe.transform({ name: 'Sam' }, body(NamedDto))).toBeInstanceOf(NamedDto);
  });

  it('answers a single-message check without fieldErrors; a subclass also follows its base rules', async () => {
    expect(await reply(pipe.transform({ name: 'Sam', code: 'no' }, body(ChildDto)))).toEqual({
      statusCode: 400,
      message: 'Wrong code',
    });
    expect(await reply(pipe.transform({ code: 'ok' }, body(ChildDto)))).toEqual({
      statusCode: 400,
      message: 'Not a valid name',
      fieldErrors: { name: 'Not a valid name' },
    });
    expect(await reply(pipe.transform({ name: 'Sam', code: 'ok' }, body(ChildDto)))).toBe('passed');
  });

  it('leaves custom parameters (the signed-in user) alone', async () => {
    const user = { userId: 'u1' };
    expect(await pipe.transform(user, { type: 'custom', metatype: NamedDto })).toBe(user);
  });
});
