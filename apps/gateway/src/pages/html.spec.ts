import { escapeHtml, markup, jsonForScript, trusted } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('leaves other text, accents and FCFA spacing alone', () => {
    expect(escapeHtml('Thiéboudienne 1\u202f000\u00a0FCFA')).toBe(
      'Thiéboudienne 1\u202f000\u00a0FCFA',
    );
  });
});

describe('markup', () => {
  it('escapes every interpolated string, so a value cannot leave its attribute', () => {
    const title = '" onmouseover="alert(1)';
    expect(markup`<p title="${title}">${'<b>'}</p>`.value).toBe(
      '<p title="&quot; onmouseover=&quot;alert(1)">&lt;b&gt;</p>',
    );
  });

  it('renders numbers and arrays, and nothing for null, undefined and false', () => {
    expect(markup`${[1, '<', null]}|${undefined}|${false}|${0}`.value).toBe('1&lt;|||0');
  });

  it('keeps markup that is already safe as it is', () => {
    const inner = markup`<em>${'a&b'}</em>`;
    expect(markup`<p>${inner}${trusted('<br>')}</p>`.value).toBe('<p><em>a&amp;b</em><br></p>');
  });
});

describe('jsonForScript', () => {
  const nasty = {
    name: '</script><script>alert("x")</script>',
    comment: '<!-- a -->',
    amp: 'a & b',
    separators: 'line\u2028para\u2029end',
  };

  it('leaves no character that could end the script element or the line', () => {
    const json = jsonForScript(nasty);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
  });

  it('is JSON that parses back to the same value', () => {
    expect(JSON.parse(jsonForScript(nasty))).toEqual(nasty);
  });

  it('renders undefined as null rather than nothing', () => {
    expect(jsonForScript(undefined)).toBe('null');
  });
});
