/**
 * `/favicon.ico`: a small icon (a 2×2 grid of tiles) so browsers opening any page get one instead
 * of a 404. An ICO file holding one 32×32 PNG, rendered once by sharp (loaded then) from an SVG.
 */
import type { FastifyInstance } from 'fastify';
import { loadSharp } from '../../util/sharp-module.ts';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<rect width="32" height="32" rx="5" fill="#1f4e79"/>
<rect x="5" y="5" width="10" height="10" fill="#8fd694"/><rect x="17" y="5" width="10" height="10" fill="#f2c14e"/>
<rect x="5" y="17" width="10" height="10" fill="#5fa8d3"/><rect x="17" y="17" width="10" height="10" fill="#e76f51"/>
</svg>`;

/** An ICO container (ICONDIR + one ICONDIRENTRY) around a PNG image. */
export function icoFromPng(png: Buffer, size: number): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(size >= 256 ? 0 : size, 6);
  head.writeUInt8(size >= 256 ? 0 : size, 7);
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18); // image offset
  return Buffer.concat([head, png]);
}

let icon: Promise<Buffer> | undefined;

export function registerFavicon(app: FastifyInstance): void {
  app.get('/favicon.ico', async (_request, reply) => {
    icon ??= loadSharp()
      .then((sharp) => sharp(Buffer.from(SVG)).png().toBuffer())
      .then((png) => icoFromPng(png, 32));
    return reply
      .type('image/x-icon')
      .header('cache-control', 'public, max-age=86400')
      .send(await icon);
  });
}
