// Drawing the hive in SVG: pointy-top hexagons, each piece a tile with its
// bug drawn on it in the bug's colour (the same on both players' tiles, so a
// bug is known by shape and colour at once), its letter and number beneath.

import { cellKey, keyCell, pieceInfo, describeDestination, DIRECTIONS } from './notation.js';

const SVG = 'http://www.w3.org/2000/svg';
export const R = 30; // a hexagon's circumradius in board units
const SQRT3 = Math.sqrt(3);

// centre returns the position of an axial cell on the board.
export function centre([q, r]) {
  return [R * SQRT3 * (q + r / 2), R * 1.5 * r];
}

export function hexPoints(radius) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 90);
    pts.push(`${(radius * Math.cos(a)).toFixed(2)},${(radius * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

export function el(name, attrs = {}, children = []) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// The glyphs, drawn facing up in a box from -40 to 40. Classes: "c" fills
// with the bug's colour, "l" strokes with it, "d" and "dl" are dark details
// (fill and stroke) drawn on the bug's body, "wing" a light wing.
const legs = (d) => el('path', { class: 'l', d });
const GLYPHS = {
  Q: () => [
    el('ellipse', { class: 'wing', cx: -13, cy: -6, rx: 13, ry: 7, transform: 'rotate(-28 -13 -6)' }),
    el('ellipse', { class: 'wing', cx: 13, cy: -6, rx: 13, ry: 7, transform: 'rotate(28 13 -6)' }),
    el('ellipse', { class: 'c', cx: 0, cy: 5, rx: 11, ry: 19 }),
    el('path', { class: 'dl', d: 'M-10 0H10M-10.5 8H10.5M-7.5 16H7.5' }),
    el('circle', { class: 'c', cx: 0, cy: -17, r: 7 }),
    legs('M-3-23Q-6-31-12-33M3-23Q6-31 12-33'),
  ],
  S: () => [
    legs('M-5-12L-18-26L-28-19M-6-9L-22-14L-33-5M-6-5L-22 1L-30 13M-5-2L-17 11L-21 27'),
    legs('M5-12L18-26L28-19M6-9L22-14L33-5M6-5L22 1L30 13M5-2L17 11L21 27'),
    el('circle', { class: 'c', cx: 0, cy: -9, r: 8 }),
    el('circle', { class: 'c', cx: 0, cy: 10, r: 13 }),
    el('path', { class: 'dl', d: 'M0 1V19M-6 7L6 13M6 7L-6 13' }),
  ],
  B: () => [
    legs('M-12-4L-25-12M-14 5L-28 6M-12 14L-24 24M12-4L25-12M14 5L28 6M12 14L24 24'),
    el('ellipse', { class: 'c', cx: 0, cy: -19, rx: 8, ry: 6 }),
    legs('M-5-23L-9-31M5-23L9-31'),
    el('ellipse', { class: 'c', cx: 0, cy: 4, rx: 16, ry: 19 }),
    el('path', { class: 'dl', d: 'M0-13V23M-16 -6Q0-12 16-6' }),
  ],
  G: () => [
    legs('M-5 4L-22-10L-19 28M5 4L22-10L19 28'),
    legs('M-4-6L-16-4L-22 4M4-6L16-4L22 4'),
    el('ellipse', { class: 'c', cx: 0, cy: 4, rx: 7, ry: 23 }),
    el('circle', { class: 'c', cx: 0, cy: -21, r: 6 }),
    legs('M-2-26Q-8-37-18-40M2-26Q8-37 18-40'),
    el('path', { class: 'dl', d: 'M-6 2H6M-6 9H6M-5 16H5' }),
  ],
  A: () => [
    legs('M-4-8L-17-17L-24-13M-4-5L-21-4M-4-2L-15 9L-22 17M4-8L17-17L24-13M4-5L21-4M4-2L15 9L22 17'),
    legs('M-3-26L-10-34L-16-32M3-26L10-34L16-32'),
    el('circle', { class: 'c', cx: 0, cy: -21, r: 6.5 }),
    el('ellipse', { class: 'c', cx: 0, cy: -5, rx: 5.5, ry: 8 }),
    el('ellipse', { class: 'c', cx: 0, cy: 15, rx: 10, ry: 13 }),
  ],
  M: () => [
    legs('M-3-4L-26-18M-3 0L-30 7M-3 5L-23 31M3-4L26-18M3 0L30 7M3 5L23 31'),
    el('ellipse', { class: 'wing', cx: -12, cy: -3, rx: 15, ry: 4.5, transform: 'rotate(28 -12 -3)' }),
    el('ellipse', { class: 'wing', cx: 12, cy: -3, rx: 15, ry: 4.5, transform: 'rotate(-28 12 -3)' }),
    el('ellipse', { class: 'c', cx: 0, cy: 7, rx: 5, ry: 17 }),
    el('circle', { class: 'c', cx: 0, cy: -13, r: 5 }),
    el('path', { class: 'l', d: 'M0-17V-37', 'stroke-width': 2 }),
  ],
  L: () => [
    legs('M-14-6L-24-10M-16 4L-27 4M-14 14L-24 20M14-6L24-10M16 4L27 4M14 14L24 20'),
    el('circle', { class: 'c', cx: 0, cy: -15, r: 8 }),
    el('circle', { class: 'c', cx: 0, cy: 4, r: 18 }),
    el('path', { class: 'dl', d: 'M0-14V22' }),
    ...[[-8, -4], [8, -4], [-11, 8], [11, 8], [-5, 16], [5, 16]].map(([cx, cy]) => el('circle', { class: 'd', cx, cy, r: 3.4 })),
  ],
  P: () => [
    legs('M-14-10L-22-13M-16-2L-25-2M-16 6L-24 9M-13 14L-21 19M14-10L22-13M16-2L25-2M16 6L24 9M13 14L21 19'),
    legs('M-4-23L-10-31M4-23L10-31'),
    el('ellipse', { class: 'c', cx: 0, cy: 0, rx: 16, ry: 22 }),
    el('path', { class: 'dl', d: 'M-15-11Q0-16 15-11M-16-3Q0-8 16-3M-16 5Q0 0 16 5M-14 13Q0 8 14 13' }),
  ],
};

// A stack is drawn within its own cell, so that it never covers a
// neighbour (whose label sits at the bottom of its tile, next to the cells
// above it): the pieces beneath peek out up and to the left, STEP apart,
// the top tile a little down and to the right, all of them shrunk as much
// as the peeking takes. CELL_ROOM is how far from a cell's centre, measured
// square to its edges, a tile and its widest outline (the focus ring) may
// reach: short of the neighbours' tiles.
const TILE = R * 0.92; // a lone tile's circumradius
const STEP = 3; // how far each piece beneath peeks out
const CELL_ROOM = R * SQRT3 - (TILE * SQRT3) / 2 - 0.8;
const RING = 2.5; // half the focus ring's width

// pieceShape draws a piece's tile and bug, centred on 0,0, with the edges
// of the pieces beneath it (bottom first), in their colours, peeking out.
export function pieceShape(name, { beneath = [] } = {}) {
  const { color, bug, number } = pieceInfo(name);
  const g = el('g', { class: `piece-shape ${color} bug-${bug}` });
  const shown = beneath.slice(-3);
  // The layers run along the direction square to the upper left edge, so
  // that the stack's reach towards it is just its half-length.
  const half = (shown.length * STEP) / 2;
  const radius = Math.min(TILE, ((CELL_ROOM - half - RING) * 2) / SQRT3);
  const at = (i) => {
    const d = half - i * STEP; // i = 0 is the bottom of what is shown
    return [-d / 2, (-d * SQRT3) / 2];
  };
  const move = ([x, y]) => `translate(${x.toFixed(2)} ${y.toFixed(2)})`;
  shown.forEach((p, i) => {
    g.append(el('polygon', { class: `tile under ${pieceInfo(p).color}`, points: hexPoints(radius), transform: move(at(i)) }));
  });
  const [x, y] = at(shown.length);
  const k = radius / TILE;
  g.append(el('polygon', { class: 'tile', points: hexPoints(radius), transform: move([x, y]) }));
  g.append(el('g', { class: 'glyph', transform: `${move([x, y - 4 * k])} scale(${((R * 0.62) / 40) * k})` }, GLYPHS[bug]()));
  const label = el('text', { class: 'label', x: x.toFixed(2), y: (y + TILE * 0.76 * k).toFixed(2), 'text-anchor': 'middle' });
  label.textContent = bug + (number || '');
  g.append(label);
  return g;
}

// pieceIcon is a small standalone SVG of a piece, for the hands and lists.
export function pieceIcon(name, size = 50) {
  const box = R * 1.0;
  return el('svg', { class: 'piece-icon', viewBox: `${-box} ${-box} ${2 * box} ${2 * box}`, width: size, height: size, 'aria-hidden': 'true', focusable: 'false' }, [pieceShape(name)]);
}

// stackWords describes the pieces under the top one: "on top of black
// Queen Bee and white Spider 1".
export function stackWords(stack) {
  if (stack.length < 2) return '';
  const beneath = stack.slice(0, -1).reverse().map((p) => pieceInfo(p).words);
  return 'on top of ' + beneath.join(' and ');
}

// placeWords describes where a cell is, by its neighbours.
export function placeWords(board, key) {
  const around = board.neighbours(key);
  if (around.length === 0) return 'alone at the centre';
  return 'next to ' + around.map((n) => pieceInfo(n.piece).words).join(', ');
}

// drawBoard redraws the hive into svg. view holds what the page wants
// shown: the board, the destinations of the selected piece (moveText ->
// parsed move), the pieces that can move, the selected piece, the last
// move's cell, and the Queens that lost.
export function drawBoard(svg, view) {
  const { board, destinations, movable, selected, lastCell, lost = new Set() } = view;
  svg.replaceChildren();
  const cells = [...board.stacks.keys()].map(keyCell);
  const destCells = new Map(); // cell key -> [moveText, move]
  for (const [text, move] of destinations) destCells.set(cellKey(...board.destination(move)), [text, move]);
  for (const k of destCells.keys()) cells.push(keyCell(k));
  fitView(svg, cells);

  // Empty cells next to the hive, faintly, to show the grid.
  const grid = el('g', { class: 'grid', 'aria-hidden': 'true' });
  const seen = new Set(board.stacks.keys());
  for (const k of board.stacks.keys()) {
    for (const d of Object.values(DIRECTIONS)) {
      const [q, r] = keyCell(k);
      const nk = cellKey(q + d.step[0], r + d.step[1]);
      if (seen.has(nk)) continue;
      seen.add(nk);
      const [x, y] = centre(keyCell(nk));
      grid.append(el('polygon', { class: 'cell', points: hexPoints(R * 0.92), transform: `translate(${x} ${y})` }));
    }
  }
  svg.append(grid);

  // Pieces, in reading order, so that tabbing goes row by row.
  const keys = [...board.stacks.keys()].sort((a, b) => {
    const [qa, ra] = keyCell(a);
    const [qb, rb] = keyCell(b);
    return ra - rb || qa + ra / 2 - (qb + rb / 2);
  });
  for (const k of keys) {
    const stack = board.stacks.get(k);
    const top = stack[stack.length - 1];
    const [x, y] = centre(keyCell(k));
    const canMove = movable.has(top);
    const words = [pieceInfo(top).words, stackWords(stack), placeWords(board, k), lost.has(top) ? 'surrounded' : ''].filter(Boolean).join(', ');
    const [q, r] = keyCell(k);
    const g = el('g', {
      class: 'piece' + (canMove ? ' movable' : '') + (top === selected ? ' selected' : '') + (k === lastCell ? ' last' : '') + (lost.has(top) ? ' lost' : ''),
      transform: `translate(${x} ${y})`,
      'data-piece': top,
      'data-q': q,
      'data-r': r,
      'data-height': stack.length,
      'data-stack': stack.join(' '),
      tabindex: 0,
      role: canMove ? 'button' : 'img',
      'aria-label': words + (canMove ? (top === selected ? ', selected' : ', can move') : ''),
      'aria-pressed': canMove ? String(top === selected) : null,
    });
    g.append(pieceShape(top, { beneath: stack.slice(0, -1) }));
    if (stack.length > 1) {
      // The height, on the right of the tile and inside the cell, as a
      // stack is (see pieceShape).
      const badge = el('g', { class: 'height', transform: `translate(${R * 0.55} ${-R * 0.1})` });
      badge.append(el('circle', { r: 8.5 }));
      const t = el('text', { 'text-anchor': 'middle', y: 3.6 });
      t.textContent = String(stack.length);
      badge.append(t);
      g.append(badge);
    }
    const title = el('title');
    title.textContent = words;
    g.append(title);
    svg.append(g);
  }

  // Destinations of the selected piece, over the pieces they cover.
  for (const [k, [text, move]] of destCells) {
    const [x, y] = centre(keyCell(k));
    const [q, r] = keyCell(k);
    const g = el('g', {
      class: 'dest' + (board.stacks.has(k) ? ' onto' : ''),
      transform: `translate(${x} ${y})`,
      'data-move': text,
      'data-q': q,
      'data-r': r,
      tabindex: 0,
      role: 'button',
      'aria-label': `destination ${describeDestination(move)}: play ${text}`,
    });
    g.append(el('polygon', { points: hexPoints(R * 0.86) }));
    g.append(el('circle', { class: 'dot', r: R * 0.16 }));
    const title = el('title');
    title.textContent = `${pieceInfo(move.piece).words} ${describeDestination(move)} (${text})`;
    g.append(title);
    svg.append(g);
  }
}

// MAX_ZOOM is the most screen pixels a board unit is drawn with: a tile
// at most about 80 px tall, so that the first pieces of a game are not
// drawn huge.
const MAX_ZOOM = 1.5;

// fitView sets the viewBox around the cells, in the board's own shape, so
// that the hive fills as much of the board as it can, on a phone's tall
// board as on a desktop's wide one (a viewBox of another shape would leave
// bands of empty board on two sides), and no closer than MAX_ZOOM. The
// margin leaves room for a tile, its outline and a glimpse of the grid.
function fitView(svg, cells) {
  if (cells.length === 0) cells = [[0, 0]];
  const xs = cells.map((c) => centre(c)[0]);
  const ys = cells.map((c) => centre(c)[1]);
  const pad = R * 1.4;
  const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
  const minY = Math.min(...ys) - pad, maxY = Math.max(...ys) + pad;
  const box = svg.getBoundingClientRect();
  // Before the board is laid out (or while it is hidden) any shape does.
  const width = box.width > 0 ? box.width : 800, height = box.height > 0 ? box.height : 500;
  const zoom = Math.min(width / (maxX - minX), height / (maxY - minY), MAX_ZOOM);
  const w = width / zoom, h = height / zoom;
  const x = (minX + maxX - w) / 2, y = (minY + maxY - h) / 2;
  svg.setAttribute('viewBox', `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
}
