/** A problem with how rastile was invoked: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
