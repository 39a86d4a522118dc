import { describe, expect, it } from 'vitest';
import { createProgressReporter } from './progress.js';

function stream(isTTY: boolean, columns?: number) {
  let text = '';
  return { write: (chunk: string) => (text += chunk), isTTY, columns, text: () => text };
}

describe('progress on a terminal', () => {
  it('cuts lines to the terminal width so that the redraw stays on one row', () => {
    const s = stream(true, 30);
    const p = createProgressReporter(s, true);
    p.onProgress({ stage: 'inventory', message: 'Listing files in /a/very/long/path/of/a/repository' });
    expect(s.text()).toBe('\r\u001b[2Kinventory: Listing files in …');
    p.finish();
    expect(s.text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it('assumes 80 columns when the terminal reports none', () => {
    const s = stream(true, 0);
    createProgressReporter(s, true).onProgress({ stage: 'parse', message: 'x'.repeat(200) });
    expect(s.text()).toHaveLength('\r\u001b[2K'.length + 79);
  });

  it('redraws a stage at most every 80 ms but always shows a new stage', () => {
    const s = stream(true, 100);
    const p = createProgressReporter(s, true);
    p.onProgress({ stage: 'parse', message: 'Analysed 1/3 files', done: 1, total: 3, percent: 33 });
    p.onProgress({ stage: 'parse', message: 'Analysed 2/3 files', done: 2, total: 3, percent: 67 });
    p.onProgress({ stage: 'graph', message: 'Building the code graph' });
    expect(s.text()).toBe('\r\u001b[2Kparse: Analysed 1/3 files (33%)\r\u001b[2Kgraph: Building the code graph');
  });

  it('clears nothing when nothing was drawn', () => {
    const s = stream(true, 80);
    createProgressReporter(s, true).finish();
    expect(s.text()).toBe('');
  });
});

describe('progress in a log', () => {
  it('prints stage changes and each quarter of a stage, counts added only when missing', () => {
    const s = stream(false);
    const p = createProgressReporter(s, true);
    for (let done = 0; done <= 10; done++) p.onProgress({ stage: 'parse', message: 'Parsing', done, total: 10, percent: done * 10 });
    p.onProgress({ stage: 'done', message: 'Done in 1.0 s', percent: 100 });
    expect(s.text().split('\n')).toEqual([
      'parse: Parsing 0/10 (0%)',
      'parse: Parsing 3/10 (30%)',
      'parse: Parsing 5/10 (50%)',
      'parse: Parsing 8/10 (80%)',
      'parse: Parsing 10/10 (100%)',
      'done: Done in 1.0 s',
      '',
    ]);
  });

  it('prints nothing when disabled', () => {
    const s = stream(false);
    createProgressReporter(s, false).onProgress({ stage: 'parse', message: 'Parsing' });
    expect(s.text()).toBe('');
  });
});
