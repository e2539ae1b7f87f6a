/** A busy or forbidden listening port, said as one line with what to type instead. */
import net from 'node:net';

function canListen(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    s.listen({ host, port, exclusive: true }, () => s.close(() => resolve(undefined)));
  });
}

/** The first port after `port` (up to 20 tried) that is free on `host`. */
async function nextFree(host: string, port: number): Promise<number | undefined> {
  for (let p = port + 1; p <= Math.min(65535, port + 20); p++) if ((await canListen(host, p)) === undefined) return p;
  return undefined;
}

/** The message for a listen error that is the user's to fix (port in use, privileged), else undefined. */
export async function portInUse(err: unknown, host: string, port: number): Promise<string | undefined> {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    const free = await nextFree(host, port);
    return `port ${port} is in use: ${free !== undefined ? `try --port ${free}` : 'choose another with --port'}`;
  }
  if (code === 'EACCES') return `port ${port} needs privileges on this system: try --port ${port < 1024 ? 8000 : port + 1}`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${host}: not an address of this machine; try --host 127.0.0.1`;
  return undefined;
}

/** Checks that `host:port` can be listened on; the problem's message, or undefined. */
export async function portProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return undefined;
  const err = await canListen(host, port);
  return err === undefined ? undefined : portInUse(err, host, port);
}
