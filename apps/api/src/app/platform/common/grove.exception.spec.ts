import { HttpStatus } from '@nestjs/common';
import { FieldErrorsException, GroveException } from './grove.exception';

describe('GroveException', () => {
  class Missing extends GroveException {
    override readonly status = HttpStatus.NOT_FOUND;
  }
  class FormInvalid extends FieldErrorsException {}

  it('replies with its own status and message', () => {
    expect(new Missing('No such thing').toResponse()).toEqual({
      statusCode: 404,
      message: 'No such thing',
    });
  });

  it('answers 500 for a type that sets no status', () => {
    class Unmapped extends GroveException {}
    expect(new Unmapped('x').toResponse().statusCode).toBe(HttpStatus.INTERNAL_SERVER_ERROR);
  });

  it('sends field errors as 400 with the first field as the message', () => {
    const errors = { name: 'Please enter a name', email: 'Not a valid email address' };
    const body = new FormInvalid(errors, 'Invalid').toResponse();
    expect(body).toEqual({ statusCode: 400, message: 'Please enter a name', fieldErrors: errors });
    expect(body.fieldErrors).not.toBe(errors);
    expect(new FormInvalid({}, 'Invalid').toResponse()).toEqual({
      statusCode: 400,
      message: 'Invalid',
      fieldErrors: {},
    });
  });
});
