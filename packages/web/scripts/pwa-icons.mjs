// Draws the app icons (public/pwa-*.png) from the same geometry as public/favicon.svg: a teal
// rounded square with a white pulse line. No dependencies: a tiny rasteriser and PNG encoder.
// Run: node packages/web/scripts/pwa-icons.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const TEAL = [0x0f, 0x76, 0x6e];
const WHITE = [0xff, 0xff, 0xff];
/** The favicon's 32-unit design: corner radius, pulse polyline and stroke width. */
const VIEW = 32;
const CORNER = 8;
const PULSE = [
  [5, 17],
  [10, 17],
  [12.5, 11],
  [16.5, 23],
  [19.5, 14],
  [21.5, 17],
  [27, 17],
];
const STROKE = 2.5;
const SAMPLES = 4;

const insideRoundedRect = (x, y, r) => {
  const dx = Math.max(r - x, x - (VIEW - r), 0);
  const dy = Math.max(r - y, y - (VIEW - r), 0);
  return x >= 0 && y >= 0 && x <= VIEW && y <= VIEW && dx * dx + dy * dy <= r * r;
};

const distanceToSegment = (px, py, [ax, ay], [bx, by]) => {
  const [vx, vy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(px - (ax + t * vx), py - (ay + t * vy));
};

const onPulse = (x, y) => PULSE.slice(1).some((b, i) => distanceToSegment(x, y, PULSE[i], b) <= STROKE / 2);

/** RGBA pixels, each averaged over SAMPLES² points; `maskable` fills the whole square (no corners). */
function draw(size, maskable) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = ((px + (sx + 0.5) / SAMPLES) / size) * VIEW;
          const y = ((py + (sy + 0.5) / SAMPLES) / size) * VIEW;
          if (!maskable && !insideRoundedRect(x, y, CORNER)) continue;
          const colour = onPulse(x, y) ? WHITE : TEAL;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 255;
        }
      }
      const n = SAMPLES * SAMPLES;
      const covered = a / 255;
      const at = (py * size + px) * 4;
      pixels[at] = covered ? Math.round(r / covered) : 0;
      pixels[at + 1] = covered ? Math.round(g / covered) : 0;
      pixels[at + 2] = covered ? Math.round(b / covered) : 0;
      pixels[at + 3] = Math.round(a / n);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** PNG, 8-bit RGBA, no filtering (filter byte 0 on every row). */
function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const publicDir = path.join(import.meta.dirname, '..', 'public');
for (const [name, size, maskable] of [
  ['pwa-64x64.png', 64, false],
  ['pwa-192x192.png', 192, false],
  ['pwa-512x512.png', 512, false],
  ['pwa-maskable-512x512.png', 512, true],
]) {
  writeFileSync(path.join(publicDir, name), encodePng(size, draw(size, maskable)));
  console.log(`wrote public/${name}`);
}
