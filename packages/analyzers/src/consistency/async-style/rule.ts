// Detects whether the repository writes asynchronous code with async/await or `.then()` chains,
// and reports the code written the other way.
import { conventionOptions, defineConventionRule, share } from '../shared/convention-rule.js';
import { AWAIT } from '../shared/flow-collector.js';
import { fileNameOf, flowObservations, MIXED } from '../shared/flow-observations.js';

const options = conventionOptions.prefault({});

export const asyncStyle = defineConventionRule({
  id: 'async-style',
  description: 'Promise code written with .then() chains where the repository uses async/await, or the reverse',
  confidence: 60,
  // Notes only: on the precision panel most reported chains were deliberate (README).
  severity: 'info',
  options,
  docs: {
    whyItMatters:
      'async/await and .then() chains order work and propagate errors differently: a reader who expects one misreads the other, ' +
      'a chain inside await-style code easily drops a rejection or a return, and mixing both in one code base doubles what ' +
      'reviewers must check.',
    suggestedAction: 'Rewrite the code in the style the rest of the repository uses.',
  },
  observe: (context) => [{ name: 'async-style', observations: flowObservations(context.summaries, 'async-style') }],
  describe(deviation, pattern) {
    // A `.then()` in a function that does not await is a deliberate choice (a cached promise, promises
    // started together, a chain returned by a plain function): only a function mixing both is reported.
    if (deviation.detail !== MIXED) return undefined;
    const where = `${deviation.path}:${deviation.line}`;
    const inside = deviation.symbol ? ` in ${deviation.symbol}` : '';
    if (deviation.values[0] === AWAIT) {
      return {
        title: `async/await${inside} (${fileNameOf(deviation.path)}) mixed with .then(); the repository chains .then()`,
        description: `${deviation.subject} (${where}) awaits promises and also chains .then(), while ${share(pattern)} of the asynchronous code in this repository uses .then() chains.`,
        suggestedAction: 'Write the function with .then() chains like the rest of the code base, or agree to move the code base to async/await.',
      };
    }
    return {
      title: `.then() chain${inside} (${fileNameOf(deviation.path)}), an async function; the repository uses async/await`,
      description: `${where} chains .then() on a promise inside a function that is async or awaits, while ${share(pattern)} of the asynchronous code in this repository uses async/await.`,
      suggestedAction: 'Make the enclosing function async and await the promise; handle rejections with try/catch where the chain had .catch().',
    };
  },
});
