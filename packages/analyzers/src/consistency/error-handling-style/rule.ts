// Detects how the repository handles promise rejections (try/catch around await or `.catch()`) and
// what it throws (Error subclasses or plain Error), and reports the code written the other way.
import { conventionOptions, defineConventionRule, share } from '../shared/convention-rule.js';
import { CATCH_CALL, ERROR_SUBCLASS, PLAIN_ERROR } from '../shared/flow-collector.js';
import { fileNameOf, flowObservations } from '../shared/flow-observations.js';

const options = conventionOptions.prefault({});

export const errorHandlingStyle = defineConventionRule({
  id: 'error-handling-style',
  // Notes, not defects: see the README's measured precision.
  severity: 'info',
  description: 'Promise rejections handled, or errors thrown, differently from the repository’s dominant style',
  confidence: 60,
  options,
  docs: {
    whyItMatters:
      'Callers rely on how errors are raised and handled: code that throws a plain Error where the rest throws typed subclasses ' +
      'cannot be told apart by `instanceof` or mapped to the right response, and rejections handled in two styles are easy to ' +
      'miss in review.',
    suggestedAction: 'Raise or handle the error the way the rest of the repository does.',
  },
  observe(context) {
    const thrown = flowObservations(context.summaries, 'error-class');
    // The subclasses the code base throws most are the suggestion for a plain Error.
    const counts = new Map<string, number>();
    for (const o of thrown) if (o.values[0] === ERROR_SUBCLASS) counts.set(o.subject, (counts.get(o.subject) ?? 0) + 1);
    const examples = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 3)
      .map(([name]) => name)
      .join(', ');
    // On copies: the observations themselves are kept for the next run, whose examples may differ.
    const suggested = examples ? thrown.map((o) => (o.values[0] === PLAIN_ERROR ? { ...o, detail: examples } : o)) : thrown;
    return [
      { name: 'promise-error-handling', observations: flowObservations(context.summaries, 'promise-error-handling') },
      { name: 'error-class', observations: suggested },
    ];
  },
  describe(deviation, pattern) {
    const where = `${deviation.path}:${deviation.line}`;
    const file = fileNameOf(deviation.path);
    const inside = deviation.symbol ? ` in ${deviation.symbol}` : '';
    const value = deviation.values[0];
    if (pattern.name === 'error-class') {
      if (value === PLAIN_ERROR) {
        return {
          title: `Plain Error thrown${inside} (${file}); the repository throws Error subclasses`,
          description:
            `${where} throws a plain Error, while ${share(pattern)} of the errors thrown by name in this repository are subclasses of Error` +
            `${deviation.detail ? ` (most often ${deviation.detail})` : ''}.`,
          suggestedAction: 'Throw the repository’s Error subclass for this kind of failure (or add one), so callers can tell it apart with instanceof.',
        };
      }
      // A typed error where plain ones are the rule is never harder to handle: not worth a finding.
      return undefined;
    }
    if (value === CATCH_CALL) {
      return {
        title: `.catch()${inside} (${file}); the repository handles rejections with try/catch`,
        description: `${where} handles a rejection with .catch(), while ${share(pattern)} of the promise error handling in this repository is try/catch around await.`,
        suggestedAction: 'Await the promise inside try/catch, as the rest of the code base does.',
      };
    }
    return {
      title: `try/catch around await${inside} (${file}); the repository uses .catch()`,
      description: `${where} catches a rejection with try/catch around await, while ${share(pattern)} of the promise error handling in this repository uses .catch().`,
      suggestedAction: 'Attach a .catch() handler to the promise, as the rest of the code base does.',
    };
  },
});
