import { isDisposableEmail } from './disposable-email';

describe('isDisposableEmail', () => {
  it('knows throwaway services and their subdomains, in any case', () => {
    expect(isDisposableEmail('sam@mailinator.com')).toBe(true);
    expect(isDisposableEmail('sam@Inbox.MAILINATOR.com')).toBe(true);
    expect(isDisposableEmail('sam@yopmail.com')).toBe(true);
  });

  it('leaves ordinary mail providers and businesses alone', () => {
    expect(isDisposableEmail('sam@gmail.com')).toBe(false);
    expect(isDisposableEmail('sam@greenvalley.com.au')).toBe(false);
    expect(isDisposableEmail('sam@x.com')).toBe(false);
    expect(isDisposableEmail('no-at-sign')).toBe(false);
  });
});
