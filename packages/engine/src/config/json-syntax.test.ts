import { describe, expect, it } from 'vitest';
import { jsonSyntaxError, parseJson } from './json-syntax.js';

describe('parseJson', () => {
  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a": [1, -2.5e3, true, null, "x\\u00e9"]}')).toEqual({ ok: true, value: { a: [1, -2500, true, null, 'xé'] } });
  });

  it('says where the text is wrong and quotes none of it', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';
    // Node's own message quotes the input; ours must not.
    expect(() => JSON.parse(passwd)).toThrow(/root:x:0:0/);
    const parsed = parseJson(passwd);
    expect(parsed).toEqual({ ok: false, message: 'not valid JSON: unexpected character at line 1, column 1' });
    const environ = 'SECRET_TOKEN=hunter2\0PATH=/usr/bin\0';
    const message = (parseJson(environ) as { message: string }).message;
    expect(message).not.toMatch(/SECRET|hunter2|PATH/);
  });

  it('finds the first offending position of common mistakes', () => {
    expect(jsonSyntaxError('{\n  "a": 1,\n}')).toMatchObject({ problem: 'expected a property name', line: 3, column: 1 });
    expect(jsonSyntaxError('{ "plugins": [')).toMatchObject({ problem: 'unexpected end of input', offset: 14 });
    expect(jsonSyntaxError('[1 2]')).toMatchObject({ problem: "expected ',' or ']'", offset: 3 });
    expect(jsonSyntaxError('{"a" 1}')).toMatchObject({ problem: "expected ':' after a property name", offset: 5 });
    expect(jsonSyntaxError('{"a": "b')).toMatchObject({ problem: 'unterminated string', offset: 8 });
    expect(jsonSyntaxError('"\\x"')).toMatchObject({ problem: 'bad escape in a string', offset: 1 });
    expect(jsonSyntaxError('"a\tb"')).toMatchObject({ problem: 'control character in a string', offset: 2 });
    expect(jsonSyntaxError('{} x')).toMatchObject({ problem: 'unexpected character after the value', offset: 3 });
    expect(jsonSyntaxError('\uFEFF{}')).toMatchObject({ offset: 0 });
    expect(jsonSyntaxError('')).toMatchObject({ problem: 'unexpected end of input', offset: 0 });
  });

  it('agrees with JSON.parse on what is valid, including deep nesting', () => {
    const cases = [
      '0',
      '-0',
      '01',
      '1.',
      '.5',
      '1e',
      '1e+2',
      '-',
      '--1',
      'tru',
      'true',
      'nul',
      '[]',
      '[,]',
      '[1,]',
      '{}',
      '{"a":}',
      '{"a":1}',
      '{"a":1,"b":{"c":[{}]}}',
      '"\\u12"',
      '"\\u1234"',
      '"\\/"',
      ' [ 1 , 2 ] ',
      '[1]]',
      '{"a":1}}',
      '[[[',
      '"',
      '{"a"',
      '{"a":1 "b":2}',
      '['.repeat(100_000) + ']'.repeat(100_000),
      '['.repeat(50_000),
    ];
    for (const text of cases) {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(jsonSyntaxError(text) === undefined, text.slice(0, 30)).toBe(valid);
    }
  });
});
