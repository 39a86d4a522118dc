import { describe, expect, it } from 'vitest';
import { detectLanguage, extensionOf } from './languages.js';

describe('detectLanguage', () => {
  it.each([
    ['src/a.ts', 'typescript'],
    ['src/a.mts', 'typescript'],
    ['src/a.cts', 'typescript'],
    ['types/index.d.ts', 'typescript'],
    ['src/App.tsx', 'tsx'],
    ['src/a.js', 'javascript'],
    ['src/a.mjs', 'javascript'],
    ['src/a.cjs', 'javascript'],
    ['public/app.min.js', 'javascript'],
    ['src/App.jsx', 'jsx'],
    ['package.json', 'json'],
    ['.eslintrc', 'json'],
    ['README.md', 'markdown'],
    ['docs/guide.markdown', 'markdown'],
    ['ci.yaml', 'yaml'],
    ['.github/workflows/ci.yml', 'yaml'],
    ['a.css', 'css'],
    ['a.scss', 'css'],
    ['a.less', 'css'],
    ['index.html', 'html'],
    ['SRC/SHOUT.TS', 'typescript'],
    ['Dockerfile', 'other'],
    ['.env', 'other'],
    ['main.py', 'other'],
    ['version.d/ts', 'other'],
    ['a.ts.orig', 'other'],
  ])('%s is %s', (path, language) => {
    expect(detectLanguage(path)).toBe(language);
  });
});

describe('extensionOf', () => {
  it('reads the last extension of the file name only, lower-cased', () => {
    expect(extensionOf('a.b/file')).toBe('');
    expect(extensionOf('lib/x.Min.JS')).toBe('js');
    expect(extensionOf('.gitignore')).toBe('');
    expect(extensionOf('dir/.eslintrc.json')).toBe('json');
  });
});
