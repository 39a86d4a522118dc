// @codehealth/cli — the `codehealth` command, also callable in process (`main(argv, io)`).
export { main, USAGE } from './main.js';
export { EXIT, UsageError } from './exit-codes.js';
export type { CliIo, OutputStream } from './io.js';
