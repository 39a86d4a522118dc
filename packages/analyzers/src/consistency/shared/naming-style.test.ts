import { describe, expect, it } from 'vitest';
import { namingStylesOf, renameTo } from './naming-style.js';

describe('namingStylesOf', () => {
  it.each([
    ['parseUrl', ['camelCase']],
    ['parseURL', ['camelCase']],
    ['getHTTPResponse2', ['camelCase']],
    ['XMLHttpRequest', ['PascalCase']],
    ['HTTP2Server', ['PascalCase']],
    ['UserService', ['PascalCase']],
    ['parse_url', ['snake_case']],
    ['MAX_RETRY_COUNT', ['UPPER_SNAKE']],
    ['user-profile', ['kebab-case']],
    ['Parse_Url', ['other']],
    ['getHTTP_status', ['other']],
  ])('%s is %j', (name, styles) => {
    expect(namingStylesOf(name)).toEqual(styles);
  });

  it('single lowercase words fit camelCase, snake_case and kebab-case alike', () => {
    expect(namingStylesOf('parse')).toEqual(['camelCase', 'snake_case', 'kebab-case']);
    expect(namingStylesOf('v8')).toEqual(['camelCase', 'snake_case', 'kebab-case']);
  });

  it('single all-caps words fit UPPER_SNAKE and PascalCase (an acronym)', () => {
    expect(namingStylesOf('URL')).toEqual(['UPPER_SNAKE', 'PascalCase']);
    expect(namingStylesOf('SHA256')).toEqual(['UPPER_SNAKE', 'PascalCase']);
  });

  it('ignores decoration: leading underscores, #private, $-suffixed observables', () => {
    expect(namingStylesOf('_privateHelper')).toEqual(['camelCase']);
    expect(namingStylesOf('__internal_state__')).toEqual(['snake_case']);
    expect(namingStylesOf('#secretValue')).toEqual(['camelCase']);
    expect(namingStylesOf('clicks$')).toEqual(['camelCase', 'snake_case', 'kebab-case']);
    expect(namingStylesOf('$')).toEqual([]);
    expect(namingStylesOf('_')).toEqual([]);
  });
});

describe('renameTo', () => {
  it('splits acronyms, digits and separators into words', () => {
    expect(renameTo('parse_url', 'camelCase')).toBe('parseUrl');
    expect(renameTo('parseURL', 'snake_case')).toBe('parse_url');
    expect(renameTo('XMLHttpRequest', 'kebab-case')).toBe('xml-http-request');
    expect(renameTo('maxRetryCount', 'UPPER_SNAKE')).toBe('MAX_RETRY_COUNT');
    expect(renameTo('user-profile', 'PascalCase')).toBe('UserProfile');
    expect(renameTo('base64Encode', 'snake_case')).toBe('base64_encode');
  });

  it('keeps decoration and gives nothing for `other`', () => {
    expect(renameTo('_fetch_user', 'camelCase')).toBe('_fetchUser');
    expect(renameTo('fooBar', 'other')).toBeUndefined();
  });
});
