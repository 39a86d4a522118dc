import { AnalyzerTester } from '@codehealth/engine/testing';
import { runtime } from '../index.js';

new AnalyzerTester(runtime).run('coercing-equality', {
  valid: [
    { code: 'if (value == null) {}\nif (null != value) {}', name: 'the == null idiom, either side' },
    { code: 'if (a === b || c !== d) {}', name: 'strict comparisons' },
    { code: "if (typeof x == 'string') {}\nif (typeof a != typeof b) {}", name: 'typeof always yields strings' },
    { code: "const same = 1 == 1;\nconst never = 'a' != 'b';", name: 'two literals' },
    { code: 'if ((value) == (null)) {}', name: 'parenthesised null' },
    { code: 'if (count == 0) {}', filename: 'docs/assets/javascripts/codemirror.js', name: 'a docs site and its vendored assets' },
    {
      code: 'if (mode == \'dark\') {}\nif (type != "{") {}\nif (kind == `auto_increment`) {}',
      name: 'a string literal that is not a number matches only itself among primitives',
    },
    {
      code: "if (list.length == 0) {}\nif (s.indexOf(t) != -1) {}\nif (name.trim() == '') {}\nif (Number(a) == parseInt(b)) {}\nif (`${a}` == b.toLowerCase()) {}",
      name: 'operands of one known type: numbers with numbers, strings with strings',
    },
  ],
  invalid: [
    {
      code: 'export function isEmpty(value) {\n  return value == undefined;\n}',
      name: '== undefined matches null too: low, with a same-behaviour replacement',
      findings: [
        {
          line: 2,
          title: 'Coercing comparison value == undefined in isEmpty',
          severity: 'info',
          symbol: 'isEmpty',
          data: { operator: '==', sameBehaviour: '== null' },
        },
      ],
    },
    {
      code: 'if (x != void 0) {}',
      name: 'void 0 is undefined',
      findings: [{ line: 1, severity: 'info', data: { operator: '!=', sameBehaviour: '!= null' } }],
    },
    {
      code: "function f(flag, count, text, list) {\n  if (flag == true) {}\n  if (count == 0) {}\n  if (text != '') {}\n  if (list == []) {}\n  if (code == '0') {}\n  if (n == -0) {}\n}",
      name: 'booleans, zero, empty string and containers are coercion traps: medium',
      findings: [
        { line: 2, severity: 'info', title: 'Coercing comparison flag == true in f' },
        { line: 3, severity: 'info' },
        { line: 4, severity: 'info', data: { operator: '!=' } },
        { line: 5, severity: 'info' },
        { line: 6, severity: 'info' },
        { line: 7, severity: 'info' },
      ],
    },
    {
      code: "if (status == 200) {}\nif (mode == '1') {}\nif (kind == ` 2 `) {}",
      name: 'numbers and numeric strings: low',
      findings: [
        { line: 1, severity: 'info', title: 'Coercing comparison status == 200 in example.ts' },
        { line: 2, severity: 'info' },
        { line: 3, severity: 'info' },
      ],
    },
    {
      code: 'if (a.id == b.id) {}\nif (name.trim() == 0) {}',
      name: 'two unknown operands: low; a string compared with the number 0: medium',
      findings: [
        { line: 1, severity: 'info', data: { operator: '==' } },
        { line: 2, severity: 'info', title: 'Coercing comparison name.trim() == 0 in example.ts' },
      ],
    },
  ],
});
