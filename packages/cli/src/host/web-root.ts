// Where the built dashboard lives: @codehealth/web's dist directory (built by `npm run build`,
// which `npm ci` runs through the root prepare script).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function webRoot(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@codehealth/web/package.json')), 'dist');
}
