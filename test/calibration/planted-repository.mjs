// The calibration's planted repository: a small TypeScript project written to be neglected — eval
// of request input, hard-coded secrets, empty catches, deeply nested and branchy functions, the
// same blocks copied between files, exports nobody imports, and no tests. It must not get an A.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A long, nested, branchy function, one per module; the copies are the duplicated blocks. */
function tangledFunction(name) {
  return `export function ${name}(input: any, mode: any, flags: any): any {
  let result: any = null;
  for (let i = 0; i < input.length; i++) {
    if (input[i] != null) {
      if (mode == 'a') {
        for (let j = 0; j < input[i].length; j++) {
          if (flags && flags.strict) {
            if (input[i][j] > 10) {
              if (input[i][j] % 2 == 0) {
                result = (result || 0) + input[i][j];
              } else if (input[i][j] % 3 == 0) {
                result = (result || 0) - input[i][j];
              } else {
                try {
                  result = JSON.parse(input[i][j]);
                } catch (e) {}
              }
            } else {
              result = mode == 'b' ? input[i][j] : flags.fallback ? flags.fallback : null;
            }
          } else {
            result = result ? result + 1 : 1;
          }
        }
      } else if (mode == 'b') {
        result = input[i] && input[i].value ? input[i].value : input[i].other ? input[i].other : 0;
      } else if (mode == 'c') {
        result = input[i].map((x: any) => (x > 0 ? (x > 10 ? (x > 100 ? 3 : 2) : 1) : 0));
      } else {
        result = undefined;
      }
    }
  }
  return result;
}
`;
}

const FILES = {
  'package.json': JSON.stringify({ name: 'planted', version: '0.0.1', main: 'src/index.ts', scripts: {} }, null, 2),
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: false, target: 'es2020', module: 'commonjs' } }, null, 2),
  'src/config.ts': `export const DB_PASSWORD = "hunter2-production-password";
export const AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
export const API_TOKEN = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";
export const STRIPE_KEY = "sk_live_51H8pQ2KzW3xYz9AbCdEfGhIjKlMnOpQrStUvWxYz";
export const unusedSetting = 42;
export const anotherUnusedSetting = "never read";
`,
  'src/server.ts': `import * as http from 'http';
import { DB_PASSWORD } from './config';
import { processOrders } from './orders';

http.createServer((req: any, res: any) => {
  const url = new URL(req.url, 'http://localhost');
  const code = url.searchParams.get('code');
  try {
    const value = eval(code);
    res.end(String(value));
  } catch (e) {}
  try {
    const fn = new Function('x', url.searchParams.get('body'));
    res.end(String(fn(DB_PASSWORD)));
  } catch (err) {}
  const cmd = url.searchParams.get('cmd');
  require('child_process').exec('ls ' + cmd, () => {});
  res.end(processOrders([url.searchParams.get('orders')], 'a', {}));
}).listen(8080);
`,
  'src/orders.ts': tangledFunction('processOrders') + tangledFunction('processInvoices'),
  'src/invoices.ts': tangledFunction('handleInvoices') + tangledFunction('handleRefunds'),
  'src/reports.ts': tangledFunction('buildReport') + tangledFunction('buildSummary'),
  'src/utils.ts': `export function helper1(a: any) { try { return JSON.parse(a); } catch (e) {} }
export function helper2(a: any) { try { return JSON.parse(a); } catch (e) {} }
export function unusedHelper(a: any, b: any, c: any, d: any, e: any, f: any, g: any) {
  if (a) { if (b) { if (c) { if (d) { if (e) { if (f) { if (g) { return 1; } } } } } } }
  return 0;
}
export var legacyCounter = 0;
export function Do_Thing_Old(x) { legacyCounter++; return x == null ? eval('x') : x; }
`,
  'src/index.ts': `export { processOrders } from './orders';
import './server';
`,
};

/** Writes the planted repository into `dir` (which must not exist or be empty). */
export function writePlantedRepository(dir) {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
