// The tool identity written into reports (SARIF driver, text header). The version is read from the
// engine's own package.json so that it can never drift from the published package.
import { readFileSync } from 'node:fs';

export const TOOL_NAME = 'CodeHealth';

interface PackageJson {
  version?: string;
  homepage?: string;
}

function readPackageJson(): PackageJson {
  try {
    // The same relative path holds from src/report (tests) and dist/report (built).
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageJson;
  } catch {
    return {};
  }
}

const pkg = readPackageJson();

export const TOOL_VERSION: string = pkg.version ?? '0.0.0';

/** SARIF requires an absolute URI; the package's `homepage` wins once it is set. */
export const TOOL_INFORMATION_URI: string = pkg.homepage ?? 'https://github.com/codehealth/codehealth';
