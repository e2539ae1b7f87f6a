/** Types of scripts/skip-summary.js (plain JS: scripts/ runs without tsx). */
export interface SharedSkipCounts {
  tests: number;
  suites: number;
}
export declare const SHARED_REASON: RegExp;
export default function skipSummaryReporter(source: AsyncIterable<unknown>): AsyncGenerator<string>;
export declare function skipSummaryLine(counts: SharedSkipCounts): string | null;
