import { sanitizePlainText } from './sanitize-text';

describe('sanitizePlainText (docs/product.md#validation: message sanitized before sending)', () => {
  it('removes scripts with their content', () => {
    expect(sanitizePlainText('Hello<script>alert("x")</script> there')).toBe('Hello there');
  });

  it('removes tags but keeps their text', () => {
    expect(
      sanitizePlainText('<p>Hi <b>team</b>, <a href="https://evil.example">click</a></p>'),
    ).toBe('Hi team, click');
  });

  it('removes attributes and event handlers with the tag', () => {
    expect(
      sanitizePlainText(
        '<img src=x onerror="alert(1)">ok <span style="color:red" onclick="x()">red</span>',
      ),
    ).toBe('ok red');
  });

  it('keeps plain text, accents, quotes, ampersands and line breaks as typed', () => {
    const text = `Zoë's gym & "Café Ngā" — 5 > 3\nSecond line\r\nThird line`;
    expect(sanitizePlainText(text)).toBe(text);
  });

  it('strips markup hidden behind entities', () => {
    expect(sanitizePlainText('&lt;script&gt;alert(1)&lt;/script&gt;safe')).toBe('safe');
    expect(sanitizePlainText('&lt;b&gt;bold&lt;/b&gt;')).toBe('bold');
  });

  it('turns a message that is only markup into an empty string', () => {
    expect(sanitizePlainText('<script>x</script><style>p{}</style>')).toBe('');
  });
});
