// Skipped tests, for the one summary line `npm test` prints at its end (scripts/test.js).
//
// The default export is a node:test reporter (a second one next to spec/tap): it writes one JSON
// line per skipped test or suite — name, file, suite or test, and the skip reason — to its
// destination file. sharedSkipSummary() turns those records into the summary line for the tests
// that skipped because the shared fixtures (../shared: TiTiler's and rio-tiler's test files,
// recorded CMR exchanges, reference values) are not present; the spec/tap output above it lists
// each skip with its own reason.
import { existsSync, readFileSync } from 'node:fs';

/** A skip reason that names the shared fixtures (`needs ../shared/fixtures`, `shared CMR recordings not present`, …). */
export const isSharedSkip = (reason) => typeof reason === 'string' && /\bshared\b/i.test(reason) && /fixtures|recordings|reference/i.test(reason);

/** node:test reporter: one JSON line per skipped test or suite. */
export default async function* skipReporter(source) {
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.skip) {
      const { name, file, skip, details } = event.data;
      yield `${JSON.stringify({ name, file, kind: details?.type === 'suite' ? 'suite' : 'test', reason: skip === true ? '' : String(skip) })}\n`;
    }
  }
}

/** The records a skipReporter wrote (none when the file is missing). */
export function readSkips(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "9 tests skipped: ../shared/fixtures not present (…)", or undefined when none skipped for that reason. */
export function sharedSkipSummary(records) {
  const shared = records.filter((r) => isSharedSkip(r.reason));
  if (shared.length === 0) return undefined;
  const suites = shared.filter((r) => r.kind === 'suite').length;
  const tests = shared.length - suites;
  const what =
    suites === 0 ? plural(tests, 'test') : tests === 0 ? plural(suites, 'whole suite') : `${plural(tests, 'test')} and ${plural(suites, 'whole suite')}`;
  return (
    `${what} skipped: ../shared/fixtures not present ` +
    "(run with the shared fixtures beside the repository for the replays of TiTiler's and rio-tiler's test files and of recorded CMR exchanges)"
  );
}
