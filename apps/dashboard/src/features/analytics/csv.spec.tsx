import { csvText } from './csv';

describe('analytics CSV downloads (issue 24 part 4: OWASP CSV injection)', () => {
  it('neutralises every text cell a spreadsheet would run as a formula, keeping numbers', async () => {
    const text = await csvText([
      ['Member', 'Branches gained', 'Savings'],
      ['=HYPERLINK("http://evil.example/x","Open")', 2, '20.00'],
      ['+61 400', 1, '@SUM(A1)'],
      ['-cmd', 0, '\tcmd'],
      ['\rcmd', -1, 'Ann Lee'],
    ]);
    expect(text.split('\r\n')).toEqual([
      'Member,Branches gained,Savings',
      `"'=HYPERLINK(""http://evil.example/x"",""Open"")",2,20.00`,
      `'+61 400,1,'@SUM(A1)`,
      `'-cmd,0,'\tcmd`,
      `"'\rcmd",-1,Ann Lee`,
    ]);
  });
});
