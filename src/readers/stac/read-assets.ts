/**
 * Runs one read per asset concurrently. The first failure fails the whole request at once: the
 * other reads are aborted, and the error keeps its kind (so its HTTP status) with the asset
 * named in the message. A slow asset fails through the byte sources' own deadlines.
 */
import { RastileError } from '../../errors.ts';
import { LinkedAbortController } from '../../sources/linked-controller.ts';

export async function readAssetsConcurrently<A extends { asset: { name: string } }, T>(
  assets: readonly A[],
  signal: AbortSignal | undefined,
  read: (asset: A, signal: AbortSignal) => Promise<T>,
): Promise<T[]> {
  const controller = new LinkedAbortController(signal);
  try {
    return await Promise.all(
      assets.map((a) =>
        read(a, controller.signal).catch((err: unknown) => {
          const clientGone = signal?.aborted === true;
          if (!controller.signal.aborted) controller.abort(err);
          throw clientGone ? err : withAssetName(err, a.asset.name);
        }),
      ),
    );
  } finally {
    controller.dispose();
  }
}

function withAssetName(err: unknown, name: string): unknown {
  if (!(err instanceof RastileError) || err.message.startsWith('Asset ')) return err;
  return new RastileError(err.kind, `Asset '${name}': ${err.message}`, { cause: err });
}
