/**
 * TIFF predictors, undone in place on the raw bytes of one block (after decompression).
 * Rows are `width` pixels of `samples` interleaved samples of `bytes` bytes each.
 */
import { Errors } from '../../../errors.ts';

/** Reverse the byte order of every `bytes`-byte sample (big-endian file → host order). */
export function swapBytes(buf: Uint8Array, bytes: number): void {
  const n = buf.length - (buf.length % bytes);
  if (bytes === 2) {
    for (let i = 0; i < n; i += 2) {
      const t = buf[i];
      buf[i] = buf[i + 1];
      buf[i + 1] = t;
    }
  } else if (bytes === 4) {
    for (let i = 0; i < n; i += 4) {
      let t = buf[i];
      buf[i] = buf[i + 3];
      buf[i + 3] = t;
      t = buf[i + 1];
      buf[i + 1] = buf[i + 2];
      buf[i + 2] = t;
    }
  } else if (bytes === 8) {
    for (let i = 0; i < n; i += 8) {
      for (let a = i, b = i + 7; a < b; a++, b--) {
        const t = buf[a];
        buf[a] = buf[b];
        buf[b] = t;
      }
    }
  }
}

/**
 * Predictor 2 (horizontal differencing): each sample was stored as the difference from the
 * same sample of the previous pixel, in integer arithmetic of the sample size. `buf` must
 * already be in host byte order and aligned to `bytes`.
 */
export function undoHorizontal(buf: Uint8Array, width: number, rows: number, samples: number, bytes: number): void {
  const rowLen = width * samples;
  if (bytes === 1) {
    accumulate(buf, rowLen, rows, samples);
  } else if (bytes === 2) {
    accumulate(new Uint16Array(buf.buffer, buf.byteOffset, buf.length >> 1), rowLen, rows, samples);
  } else if (bytes === 4) {
    accumulate(new Uint32Array(buf.buffer, buf.byteOffset, buf.length >> 2), rowLen, rows, samples);
  } else if (bytes === 8) {
    const a = new BigUint64Array(buf.buffer, buf.byteOffset, buf.length >> 3);
    for (let r = 0; r < rows; r++) {
      const end = (r + 1) * rowLen;
      for (let i = r * rowLen + samples; i < end; i++) a[i] = BigInt.asUintN(64, a[i] + a[i - samples]);
    }
  } else {
    throw Errors.unsupported(`Horizontal predictor with ${bytes * 8}-bit samples is not supported`);
  }
}

function accumulate(a: Uint8Array | Uint16Array | Uint32Array, rowLen: number, rows: number, samples: number): void {
  // Typed-array stores wrap modulo 2^bits, which is exactly the predictor's arithmetic.
  for (let r = 0; r < rows; r++) {
    const end = (r + 1) * rowLen;
    for (let i = r * rowLen + samples; i < end; i++) a[i] = a[i] + a[i - samples];
  }
}

/**
 * Predictor 3 (floating point): each row holds the samples' bytes split into planes, most
 * significant byte first, then byte-wise horizontally differenced with a stride of `samples`.
 * The result is in host (little-endian) order whatever the file's byte order.
 */
export function undoFloatingPoint(buf: Uint8Array, width: number, rows: number, samples: number, bytes: number): void {
  const wc = width * samples;
  const rowBytes = wc * bytes;
  const tmp = new Uint8Array(rowBytes);
  // 4-byte samples on an aligned buffer are reassembled as whole words (one store per sample).
  const words = bytes === 4 && buf.byteOffset % 4 === 0 ? new Uint32Array(buf.buffer, buf.byteOffset, buf.length >> 2) : null;
  for (let r = 0; r < rows; r++) {
    const start = r * rowBytes;
    // byte-wise horizontal accumulation with a stride of `samples`, into tmp
    if (samples === 1) {
      let acc = 0;
      for (let i = 0; i < rowBytes; i++) {
        acc = (acc + buf[start + i]) & 0xff;
        tmp[i] = acc;
      }
    } else {
      for (let i = 0; i < samples; i++) tmp[i] = buf[start + i];
      for (let i = samples; i < rowBytes; i++) tmp[i] = (buf[start + i] + tmp[i - samples]) & 0xff;
    }
    // planes (most significant byte first) → little-endian samples
    if (words) {
      const base = start >> 2;
      const p1 = wc;
      const p2 = 2 * wc;
      const p3 = 3 * wc;
      for (let k = 0; k < wc; k++) words[base + k] = tmp[p3 + k] | (tmp[p2 + k] << 8) | (tmp[p1 + k] << 16) | (tmp[k] << 24);
    } else {
      for (let k = 0; k < wc; k++) {
        const o = start + k * bytes;
        for (let b = 0; b < bytes; b++) buf[o + b] = tmp[(bytes - 1 - b) * wc + k];
      }
    }
  }
}

/**
 * Predictor 2 undone while splitting pixel-interleaved integer samples into planes, in one pass
 * (about twice as fast as accumulating in place and then de-interleaving). `buf` must be in host
 * byte order and aligned to `bytes`; `planes` receive `width*rows` values each (integer dtypes of
 * `bytes` bytes: stores wrap to the plane's signedness).
 */
export function horizontalToPlanes(
  buf: Uint8Array,
  width: number,
  rows: number,
  bytes: number,
  planes: Array<Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array>,
): void {
  const samples = planes.length;
  const src =
    bytes === 1
      ? buf
      : bytes === 2
        ? new Uint16Array(buf.buffer, buf.byteOffset, buf.length >> 1)
        : new Uint32Array(buf.buffer, buf.byteOffset, buf.length >> 2);
  const mask = bytes === 4 ? -1 : (1 << (bytes * 8)) - 1;
  for (let s = 0; s < samples; s++) {
    const p = planes[s];
    for (let r = 0; r < rows; r++) {
      let j = r * width * samples + s;
      let o = r * width;
      const end = o + width;
      let v = src[j];
      p[o] = v;
      for (o++, j += samples; o < end; o++, j += samples) {
        v = (v + src[j]) & mask;
        p[o] = v;
      }
    }
  }
}
