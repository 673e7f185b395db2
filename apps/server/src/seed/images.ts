import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type MarkShape =
  | "rings"
  | "hexagon"
  | "orbit"
  | "dots"
  | "waves"
  | "triangles"
  | "diamond"
  | "bars"
  | "leaf"
  | "squares"
  | "sun"
  | "keyhole";

export interface FeedArt {
  /** Two to three letters drawn over the mark. */
  initials: string;
  /** Gradient stops, top-left to bottom-right. */
  colors: readonly [string, string];
  mark: MarkShape;
}

const SIZE = 400;
const C = SIZE / 2;

const fmt = (n: number) => Number(n.toFixed(2)).toString();

function polygon(cx: number, cy: number, radius: number, sides: number, rotation: number): string {
  const points: string[] = [];
  for (let i = 0; i < sides; i++) {
    const a = rotation + (i * 2 * Math.PI) / sides;
    points.push(`${fmt(cx + radius * Math.cos(a))},${fmt(cy + radius * Math.sin(a))}`);
  }
  return points.join(" ");
}

/** Decorative geometry in translucent white, kept behind the initials so small avatars stay legible. */
function markSvg(mark: MarkShape): string {
  const stroke = `fill="none" stroke="#fff" stroke-opacity="0.28"`;
  switch (mark) {
    case "rings":
      return [150, 118, 86]
        .map((r, i) => `<circle cx="${C}" cy="${C}" r="${r}" ${stroke} stroke-width="${10 - i * 2}"/>`)
        .join("");
    case "hexagon":
      return [158, 122]
        .map(
          (r, i) =>
            `<polygon points="${polygon(C, C, r, 6, Math.PI / 6)}" ${stroke} stroke-width="${12 - i * 5}" stroke-linejoin="round"/>`,
        )
        .join("");
    case "orbit":
      return (
        `<ellipse cx="${C}" cy="${C}" rx="170" ry="64" ${stroke} stroke-width="8" transform="rotate(-28 ${C} ${C})"/>` +
        `<ellipse cx="${C}" cy="${C}" rx="170" ry="64" ${stroke} stroke-width="8" transform="rotate(32 ${C} ${C})"/>` +
        `<circle cx="336" cy="112" r="16" fill="#fff" fill-opacity="0.7"/>`
      );
    case "dots": {
      const dots: string[] = [];
      for (let row = 0; row < 7; row++) {
        for (let col = 0; col < 7; col++) {
          const d = Math.hypot(row - 3, col - 3);
          const r = Math.max(3, 11 - d * 2.2);
          dots.push(
            `<circle cx="${56 + col * 48}" cy="${56 + row * 48}" r="${fmt(r)}" fill="#fff" fill-opacity="0.22"/>`,
          );
        }
      }
      return dots.join("");
    }
    case "waves":
      return [110, 200, 290]
        .map(
          (y) =>
            `<path d="M0 ${y} C 70 ${y - 46}, 130 ${y - 46}, 200 ${y} S 330 ${y + 46}, 400 ${y}" ${stroke} stroke-width="14" stroke-linecap="round"/>`,
        )
        .join("");
    case "triangles":
      return (
        `<polygon points="${polygon(C, 214, 168, 3, -Math.PI / 2)}" ${stroke} stroke-width="12" stroke-linejoin="round"/>` +
        `<polygon points="${polygon(C, 214, 92, 3, Math.PI / 2)}" fill="#fff" fill-opacity="0.12"/>`
      );
    case "diamond":
      return (
        `<rect x="90" y="90" width="220" height="220" rx="28" ${stroke} stroke-width="12" transform="rotate(45 ${C} ${C})"/>` +
        `<rect x="128" y="128" width="144" height="144" rx="18" fill="#fff" fill-opacity="0.1" transform="rotate(45 ${C} ${C})"/>`
      );
    case "bars":
      return [0, 1, 2, 3, 4]
        .map((i) => {
          const h = 70 + i * 48;
          return `<rect x="${58 + i * 60}" y="${352 - h}" width="42" height="${h}" rx="10" fill="#fff" fill-opacity="${fmt(0.1 + i * 0.04)}"/>`;
        })
        .join("");
    case "leaf":
      return (
        `<path d="M84 318 C 84 150, 190 70, 330 70 C 330 230, 240 318, 84 318 Z" fill="#fff" fill-opacity="0.14"/>` +
        `<path d="M84 318 C 160 240, 230 170, 316 86" ${stroke} stroke-width="10" stroke-linecap="round"/>`
      );
    case "squares": {
      const tiles: string[] = [];
      for (let row = 0; row < 4; row++) {
        for (let col = 0; col < 4; col++) {
          const opacity = ((row + col) % 3) * 0.08 + 0.08;
          tiles.push(
            `<rect x="${44 + col * 80}" y="${44 + row * 80}" width="72" height="72" rx="14" fill="#fff" fill-opacity="${fmt(opacity)}"/>`,
          );
        }
      }
      return tiles.join("");
    }
    case "sun": {
      const rays: string[] = [];
      for (let i = 0; i < 12; i++) {
        const a = (i * Math.PI) / 6;
        const [x1, y1] = [C + 118 * Math.cos(a), C + 118 * Math.sin(a)];
        const [x2, y2] = [C + 178 * Math.cos(a), C + 178 * Math.sin(a)];
        rays.push(
          `<line x1="${fmt(x1)}" y1="${fmt(y1)}" x2="${fmt(x2)}" y2="${fmt(y2)}" ${stroke} stroke-width="12" stroke-linecap="round"/>`,
        );
      }
      return `<circle cx="${C}" cy="${C}" r="96" fill="#fff" fill-opacity="0.14"/>${rays.join("")}`;
    }
    case "keyhole":
      return (
        `<path d="M${C} 40 L330 92 V206 C330 286 272 338 ${C} 364 C128 338 70 286 70 206 V92 Z" ${stroke} stroke-width="12" stroke-linejoin="round"/>` +
        `<path d="M${C} 84 L292 122 V206 C292 266 250 306 ${C} 326 C150 306 108 266 108 206 V122 Z" fill="#fff" fill-opacity="0.08"/>`
      );
  }
}

export function feedImageSvg(art: FeedArt): string {
  const [from, to] = art.colors;
  const fontSize = art.initials.length > 2 ? 112 : 136;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-label="${art.initials}">`,
    "<defs>",
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`,
    `<radialGradient id="glow" cx="0.22" cy="0.18" r="0.9"><stop offset="0" stop-color="#fff" stop-opacity="0.32"/><stop offset="0.6" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
    "</defs>",
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>`,
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#glow)"/>`,
    markSvg(art.mark),
    `<text x="${C}" y="${C}" dy="0.35em" text-anchor="middle" font-family="'Inter','Segoe UI',system-ui,sans-serif" font-weight="800" font-size="${fontSize}" letter-spacing="-4" fill="#fff" fill-opacity="0.96">${art.initials}</text>`,
    "</svg>",
    "",
  ].join("");
}

export interface StoredImage {
  hash: string;
  fileName: string;
  size: number;
}

/** Writes the SVG under its content hash, so reseeding or identical art never duplicates files. */
export function storeSvg(uploadsDir: string, svg: string): StoredImage {
  const bytes = Buffer.from(svg, "utf8");
  const hash = createHash("sha256").update(bytes).digest("hex");
  const fileName = `${hash}.svg`;
  mkdirSync(uploadsDir, { recursive: true });
  writeFileSync(join(uploadsDir, fileName), bytes);
  return { hash, fileName, size: bytes.length };
}
