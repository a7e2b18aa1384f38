#!/usr/bin/env node
// Renders media/icon.png (128×128, the Marketplace icon) from a few shapes, with no image library:
// a rounded tile and three plug points joined by cords, a switchboard. Run: node scripts/renderIcon.mjs
import fs from 'node:fs';
import zlib from 'node:zlib';

const N = 128;
const px = new Float64Array(N * N * 4);
const clamp = (v) => Math.max(0, Math.min(1, v));
/** Paints colour [r,g,b] with coverage from a signed distance (negative = inside). */
function paint(sdf, [r, g, b]) {
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    const a = clamp(0.5 - sdf(x + 0.5, y + 0.5));
    if (a <= 0) continue;
    const i = (y * N + x) * 4;
    px[i] = px[i] * (1 - a) + r * a; px[i + 1] = px[i + 1] * (1 - a) + g * a; px[i + 2] = px[i + 2] * (1 - a) + b * a;
    px[i + 3] = px[i + 3] * (1 - a) + a;
  }
}
const roundRect = (cx, cy, hw, hh, rad) => (x, y) => {
  const qx = Math.abs(x - cx) - hw + rad, qy = Math.abs(y - cy) - hh + rad;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - rad;
};
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const segment = (ax, ay, bx, by, w) => (x, y) => {
  const pax = x - ax, pay = y - ay, bax = bx - ax, bay = by - ay;
  const h = clamp((pax * bax + pay * bay) / (bax * bax + bay * bay));
  return Math.hypot(pax - bax * h, pay - bay * h) - w;
};
paint(roundRect(64, 64, 60, 60, 22), [0.09, 0.36, 0.78]);
paint(roundRect(64, 64, 52, 52, 16), [0.11, 0.44, 0.92]);
const nodes = [[36, 40], [92, 40], [64, 92]];
const white = [1, 1, 1];
paint(segment(36, 40, 92, 40, 4), white);
paint(segment(36, 40, 64, 92, 4), white);
paint(segment(92, 40, 64, 92, 4), [0.75, 0.87, 1]);
for (const [cx, cy] of nodes) { paint(circle(cx, cy, 12), white); paint(circle(cx, cy, 5.5), [0.11, 0.44, 0.92]); }

// PNG encoding (RGBA, 8 bit)
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0;
  for (let x = 0; x < N; x++) for (let c = 0; c < 4; c++) {
    const i = (y * N + x) * 4;
    const alpha = px[i + 3];
    const v = c === 3 ? alpha : alpha > 0 ? px[i + c] / alpha : 0;
    raw[y * (N * 4 + 1) + 1 + x * 4 + c] = Math.round(clamp(v) * 255);
  }
}
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6;
const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
fs.writeFileSync(new URL('../media/icon.png', import.meta.url), png);
console.log(`media/icon.png: ${png.length} bytes`);
