/**
 * Object headers (version 1 and version 2 "OHDR"), followed through their continuation blocks,
 * as a flat list of raw messages. Message bodies are decoded by messages/*.ts.
 */
import { Errors } from '../../errors.ts';
import { Cursor, UNDEF } from './bytes.ts';
import type { FileContext } from './file-context.ts';

export const MSG = {
  NIL: 0x00,
  DATASPACE: 0x01,
  LINK_INFO: 0x02,
  DATATYPE: 0x03,
  FILL_VALUE_OLD: 0x04,
  FILL_VALUE: 0x05,
  LINK: 0x06,
  EXTERNAL_FILES: 0x07,
  LAYOUT: 0x08,
  GROUP_INFO: 0x0a,
  FILTER_PIPELINE: 0x0b,
  ATTRIBUTE: 0x0c,
  CONTINUATION: 0x10,
  SYMBOL_TABLE: 0x11,
  ATTRIBUTE_INFO: 0x15,
} as const;

/** Message flag: the body is a reference to a shared message, not the message itself. */
export const FLAG_SHARED = 0x02;

export interface RawMessage {
  type: number;
  flags: number;
  data: Uint8Array;
}

export interface ObjectHeader {
  address: number;
  messages: RawMessage[];
}

const MAX_CHUNKS = 4096;

interface Sizes {
  o: number;
  l: number;
}

/** The object header at `address` (cached per file). */
export function readObjectHeader(ctx: FileContext, address: number, signal?: AbortSignal): Promise<ObjectHeader> {
  return ctx.once(`oh:${address}`, () => parseObjectHeader(ctx, address, signal));
}

/** Bytes the sync parse needs that are not in the page cache yet. */
class Missing {
  constructor(
    readonly address: number,
    readonly length: number,
    readonly what: string,
  ) {}
}

/**
 * Parses from the page cache alone (no promise when the header's bytes are in, the usual case
 * after the head read); on a miss loads the missing bytes and parses again (a few µs per retry).
 */
function parseObjectHeader(ctx: FileContext, address: number, signal?: AbortSignal): ObjectHeader | Promise<ObjectHeader> {
  try {
    return parseCached(ctx, address);
  } catch (err) {
    if (!(err instanceof Missing)) throw err;
    return parseLoading(ctx, address, err, signal);
  }
}

async function parseLoading(ctx: FileContext, address: number, miss: Missing, signal?: AbortSignal): Promise<ObjectHeader> {
  for (;;) {
    await ctx.read(miss.address, miss.length, miss.what, signal);
    try {
      return parseCached(ctx, address);
    } catch (err) {
      if (!(err instanceof Missing)) throw err;
      miss = err;
    }
  }
}

function cached(ctx: FileContext, address: number, length: number, what: string): Cursor {
  const c = ctx.cursorNow(address, length, what);
  if (c === undefined) throw new Missing(address, length, what);
  return c;
}

function parseCached(ctx: FileContext, address: number): ObjectHeader {
  const what = `object header at ${address}`;
  const sizes = { o: ctx.sizeOfOffsets, l: ctx.sizeOfLengths };
  if (address === UNDEF) throw Errors.invalidFormat(`HDF5 ${what}: undefined address`);
  const prefixLen = Math.min(40, ctx.fileSize - ctx.baseAddress - address);
  const prefix = cached(ctx, address, Math.max(0, prefixLen), what);
  const messages: RawMessage[] = [];
  const pending: Array<{ address: number; length: number }> = [];
  let v2 = false;
  if (prefix.bytes[0] === 0x4f && prefix.bytes[1] === 0x48 && prefix.bytes[2] === 0x44 && prefix.bytes[3] === 0x52) {
    v2 = true;
    prefix.signature('OHDR');
    const version = prefix.u8('version');
    if (version !== 2) throw Errors.invalidFormat(`HDF5 ${what}: version ${version} after OHDR`);
    const flags = prefix.u8('flags');
    if (flags & 0x20) prefix.skip(16, 'times');
    if (flags & 0x10) prefix.skip(4, 'attribute phase change');
    const size = prefix.uint(1 << (flags & 3), 'chunk size');
    const start = prefix.pos;
    const c = cached(ctx, address, start + size + 4, what);
    c.pos = start;
    readV2Messages(sizes, c, start + size, flags & 0x04 ? 2 : 0, messages, pending, what);
    return finish(ctx, address, messages, pending, flags & 0x04 ? 2 : 0, v2);
  }
  const version = prefix.u8('version');
  if (version !== 1) throw Errors.invalidFormat(`HDF5 ${what}: unknown object header version ${version}`);
  prefix.skip(1);
  prefix.u16('message count');
  prefix.u32('reference count');
  const size = prefix.u32('header size');
  const c = cached(ctx, address + 16, size, what);
  readV1Messages(sizes, c, messages, pending);
  return finish(ctx, address, messages, pending, 0, v2);
}

function finish(
  ctx: FileContext,
  address: number,
  messages: RawMessage[],
  pending: Array<{ address: number; length: number }>,
  orderBytes: number,
  v2: boolean,
): ObjectHeader {
  const sizes = { o: ctx.sizeOfOffsets, l: ctx.sizeOfLengths };
  const seen = new Set<number>();
  for (let n = 0; pending.length > 0; n++) {
    const next = pending.shift()!;
    const what = `object header continuation at ${next.address}`;
    if (seen.has(next.address) || n > MAX_CHUNKS) throw Errors.invalidFormat(`HDF5 ${what}: continuation loop or too many continuation blocks`);
    seen.add(next.address);
    const c = cached(ctx, next.address, next.length, what);
    if (v2) {
      c.signature('OCHK');
      readV2Messages(sizes, c, next.length - 4, orderBytes, messages, pending, what);
    } else readV1Messages(sizes, c, messages, pending);
  }
  return { address, messages };
}

function readV1Messages(sizes: Sizes, c: Cursor, out: RawMessage[], pending: Array<{ address: number; length: number }>): void {
  while (c.remaining >= 8) {
    const type = c.u16('message type');
    const size = c.u16('message size');
    const flags = c.u8('message flags');
    c.skip(3);
    const data = c.bytesAt(Math.min(size, c.remaining), 'message body');
    c.align(8);
    addMessage(sizes, c, type, flags, data, out, pending);
  }
}

function readV2Messages(
  sizes: Sizes,
  c: Cursor,
  end: number,
  orderBytes: number,
  out: RawMessage[],
  pending: Array<{ address: number; length: number }>,
  what: string,
): void {
  if (end > c.bytes.length) throw Errors.invalidFormat(`HDF5 ${what}: size runs past the block`);
  while (end - c.pos >= 4 + orderBytes) {
    const type = c.u8('message type');
    const size = c.u16('message size');
    const flags = c.u8('message flags');
    c.skip(orderBytes);
    if (c.pos + size > end) throw Errors.invalidFormat(`HDF5 ${what}: message of ${size} bytes runs past its block`);
    addMessage(sizes, c, type, flags, c.bytesAt(size, 'message body'), out, pending);
  }
}

function addMessage(
  sizes: Sizes,
  c: Cursor,
  type: number,
  flags: number,
  data: Uint8Array,
  out: RawMessage[],
  pending: Array<{ address: number; length: number }>,
): void {
  if (type === MSG.CONTINUATION) {
    const m = new Cursor(data, `${c.what} continuation message`);
    pending.push({ address: m.uint(sizes.o, 'continuation address'), length: m.uint(sizes.l, 'continuation length') });
    return;
  }
  if (type !== MSG.NIL) out.push({ type, flags, data });
}
