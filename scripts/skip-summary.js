// The one line `npm test` ends with when tests were skipped for want of the shared fixtures
// (../shared/fixtures, the CMR recordings): a node:test reporter that writes the counts as JSON to
// its destination, and the line made from them.

/** Skip reasons that mean "the shared fixtures are not here". */
export const SHARED_REASON = /\.\.\/shared|shared\/fixtures|shared (fixtures|CMR recordings)/i;

/** node:test reporter: counts the skipped tests and suites whose reason names the shared fixtures. */
export default async function* skipSummaryReporter(source) {
  const counts = { tests: 0, suites: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const reason = event.data.skip;
    if (typeof reason !== 'string' || !SHARED_REASON.test(reason)) continue;
    if (event.data.details?.type === 'suite') counts.suites++;
    else counts.tests++;
  }
  yield `${JSON.stringify(counts)}\n`;
}

/** "9 tests and 2 suites skipped: ../shared/fixtures not present", or null when none were. */
export function skipSummaryLine({ tests, suites }) {
  const parts = [];
  if (tests > 0) parts.push(`${tests} test${tests === 1 ? '' : 's'}`);
  if (suites > 0) parts.push(`${suites} suite${suites === 1 ? '' : 's'}`);
  if (parts.length === 0) return null;
  return `${parts.join(' and ')} skipped: ../shared/fixtures not present (the upstream fixtures and CMR recordings; see the README's test section)`;
}
