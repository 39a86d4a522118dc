// Per-file fact for scattered-console: the lines of the file's console.* calls.
import type { Collector } from '@codehealth/engine';

export const CONSOLE_CALLS = 'console-calls';

export const consoleCalls: Collector<number[]> = {
  id: CONSOLE_CALLS,
  create() {
    const lines: number[] = [];
    return {
      visitor: {
        call_expression(node) {
          const callee = node.childForFieldName('function');
          if (callee?.type === 'member_expression' && callee.childForFieldName('object')?.text === 'console') lines.push(node.startPosition.row + 1);
        },
      },
      result: () => lines,
    };
  },
};
