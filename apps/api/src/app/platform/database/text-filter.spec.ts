import { likeSubstring } from './text-filter';

describe('likeSubstring', () => {
  it('lower-cases and wraps the text for a substring match', () => {
    expect(likeSubstring('Jo')).toBe('%jo%');
  });

  it('escapes LIKE wildcards and the escape character', () => {
    expect(likeSubstring('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
