import { ApiError, applyFieldErrors } from './api-client';

describe('applyFieldErrors', () => {
  it("puts an ApiError's messages on the listed fields only", () => {
    const setError = jest.fn();
    const error = new ApiError(400, 'Not a valid name', {
      memberName: 'Not a valid name',
      other: 'x',
    });
    expect(applyFieldErrors(error, setError, ['memberName', 'memberEmail'])).toBe(true);
    expect(setError.mock.calls).toEqual([['memberName', { message: 'Not a valid name' }]]);
  });

  it('leaves other errors alone', () => {
    const setError = jest.fn();
    expect(applyFieldErrors(new Error('boom'), setError, ['memberName'])).toBe(false);
    expect(applyFieldErrors(new ApiError(500, 'boom'), setError, ['memberName'])).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
