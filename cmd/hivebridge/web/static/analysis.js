// The analysis board: a game (the live one, an archived one, one of a file)
// looked at with the engine. The daemon scores the whole game move by move
// (POST /analysis, streamed, drawn as a graph as it comes, its move classes
// marking the moves list), and a UHP session of the board's own, on the
// daemon's /uhp, analyses the position shown until it changes (MultiPV N,
// bestmove infinite, stop), checks every move tried (newgame with the
// variation's GameString) and says what may be played (validmoves): the
// page holds no rules. Moves tried from any position form variations beside
// the game's own moves, the main line, which nothing changes.

import { ENDED, parseGameString, boardOf, isGameString, parseReport, formatScore } from './notation.js';
import { UHPConnection } from './uhp.js';
import { el } from './board.js';

const $ = (id) => document.getElementById(id);
const cap = (s) => s[0].toUpperCase() + s.slice(1);

// app is what the page gives: { state, render, announce, authHeaders,
// storedToken, wsURL, log, prefs, savePrefs }.
let app = null;

// MAX_LINES is the most lines the board asks for: MultiPV 1 to 5.
const MAX_LINES = 5;
// RESTART_AFTER is how long a search until stopped must have run for the
// board to start it again when it ends by itself: the daemon ends it at
// --max-search-time, and the position deserves more; one that ends sooner
// ended because searching deeper changes nothing (a forced result).
const RESTART_AFTER = 2000;

// PAGE_ID is this page's own id, sent with POST /analysis (?client=): the
// daemon runs one analysis a client, a new one cancelling the one before,
// and tells clients apart by address and id, so that two tabs, or two
// players behind one address, do not cancel each other's. Random, from
// getRandomValues, which (unlike randomUUID) a page served over plain HTTP
// from another machine has too.
const PAGE_ID = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('');

// GLYPHS are the move classes' marks, the NAGs analyze writes: $6 ?!, $2 ?,
// $4 ??.
const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// A node is a position of the tree: the move that led to it from its
// parent, and the moves tried from it, the main line's first.
let nextNode = 1;
function node(move, parent, main) {
  const n = { id: nextNode++, move, parent, children: [], main };
  if (parent) parent.children.push(n);
  return n;
}

function pathOf(n) {
  const moves = [];
  for (let x = n; x.parent; x = x.parent) moves.push(x.move);
  return moves.reverse();
}

function plyOf(n) {
  let p = 0;
  for (let x = n; x.parent; x = x.parent) p++;
  return p;
}

// mainAncestor is where the line through n leaves the main line.
function mainAncestor(n) {
  let x = n;
  while (!x.main) x = x.parent;
  return x;
}

function gameStringOf(type, moves) {
  const turn = Math.floor(moves.length / 2) + 1;
  return [type, moves.length ? 'InProgress' : 'NotStarted', `${moves.length % 2 ? 'Black' : 'White'}[${turn}]`, ...moves].join(';');
}

// ---- Opening and closing ----------------------------------------------------

// openAnalysis shows a game on the analysis board: source names it, game
// is its GameString, ply the position to start at, back what closing the
// board returns to (a replay, or the live game).
export function openAnalysis({ title, gameString, ply, back }) {
  let parsed;
  try {
    parsed = parseGameString(gameString);
  } catch (e) {
    app.state.message = 'Cannot analyse this game: ' + e.message;
    app.render();
    return;
  }
  closeAnalysis(false);
  const root = node(null, null, true);
  const nodes = new Map([[root.id, root]]);
  const main = [root];
  for (const m of parsed.moves) {
    const n = node(m, main[main.length - 1], true);
    nodes.set(n.id, n);
    main.push(n);
  }
  app.state.replay = null;
  app.state.selected = null;
  app.state.analysis = {
    title, type: parsed.type.text, gameString: parsed.text, root, nodes, main, back,
    node: main[Math.max(0, Math.min(main.length - 1, ply ?? main.length - 1))],
    board: null, error: '', position: null, valid: [], lines: [], pending: new Map(), depth: 0,
    gen: 0, running: false, conn: null, sentLines: 0,
    graph: { start: null, plies: new Map(), done: null, error: '', abort: null },
  };
  goTo(app.state.analysis.node);
  scoreGame();
  $('analysis-back').focus();
}

// closeAnalysis ends the analysis: its search is stopped, its session and
// its scoring of the game closed, and the page goes back to what opened it.
export function closeAnalysis(back = true) {
  const a = app.state.analysis;
  if (!a) return;
  a.gen++;
  if (a.graph.abort) a.graph.abort.abort();
  if (a.conn) {
    a.conn.stop().catch(() => {});
    a.conn.close();
  }
  app.state.analysis = null;
  app.state.selected = null;
  if (back && a.back) a.back();
  app.render();
  if (back) $(app.state.replay ? 'replay-analyse' : 'analyse-live').focus();
}

// ---- Moving about the tree ---------------------------------------------------

// goTo shows the position n: drawn from its moves at once, then checked
// and analysed by the board's session.
function goTo(n) {
  const a = app.state.analysis;
  a.node = n;
  a.error = '';
  a.valid = [];
  a.position = null;
  a.lines = [];
  a.pending = new Map();
  app.state.selected = null;
  try {
    a.board = boardOf({ type: parseGameString(gameStringOf(a.type, [])).type, moves: pathOf(n) });
  } catch (e) {
    a.error = 'Cannot draw this position: ' + e.message;
  }
  app.announce(positionWords());
  app.render();
  analyse();
}

// playMoves plays moves from the position shown, following the tree where
// it has them and growing a variation where it has not, and shows where they
// lead. The session checks them there (analyse): moves it refuses are taken
// out of the tree again.
export function playMoves(moves) {
  const a = app.state.analysis;
  if (!a || !moves.length) return;
  let n = a.node;
  const made = [];
  for (const m of moves) {
    let next = n.children.find((c) => c.move === m);
    if (!next) {
      next = node(m, n, false);
      a.nodes.set(next.id, next);
      made.push(next);
    }
    n = next;
  }
  a.made = made;
  goTo(n);
}

function step(to) {
  const a = app.state.analysis;
  if (a && to) goTo(to);
}

function back() {
  const a = app.state.analysis;
  step(a.node.parent);
}

// nextOf is the move after n on the line through it: the main line's
// where n is on it, else the first tried.
function nextOf(n) {
  return n.children.find((c) => c.main) || n.children[0];
}

function forward() {
  const a = app.state.analysis;
  step(nextOf(a.node));
}

// lineEnd goes to the end of the line shown: the main line's end from a
// position of it, else the variation's, following first choices.
function lineEnd() {
  let x = app.state.analysis.node;
  const main = x.main;
  for (let next = nextOf(x); next && next.main === main; next = nextOf(x)) x = next;
  step(x);
}

function toMainLine() {
  const a = app.state.analysis;
  step(mainAncestor(a.node));
}

// jumpToPly shows the main line's position after ply plies.
function jumpToPly(ply) {
  const a = app.state.analysis;
  step(a.main[Math.max(0, Math.min(a.main.length - 1, ply))]);
}

function setLines(n) {
  const a = app.state.analysis;
  app.prefs.analysisLines = Math.max(1, Math.min(MAX_LINES, n));
  app.savePrefs();
  $('analysis-lines').value = String(app.prefs.analysisLines);
  if (a) goTo(a.node);
}

// ---- The board's own engine session ----------------------------------------

async function session(a) {
  if (a.conn && !a.conn.closed) return a.conn;
  const conn = new UHPConnection(app.wsURL(), {
    onLog: (dir, text) => app.log(dir, '[analysis] ' + text),
    onClose: () => {
      if (a.conn === conn) a.conn = null;
    },
  });
  const info = await conn.open(app.storedToken());
  if (info.error) {
    conn.close();
    throw new Error(info.error);
  }
  a.conn = conn;
  a.sentLines = 0;
  return conn;
}

// analyse checks the position shown and analyses it until it changes: a
// newer call (a new position, a new number of lines) stops this one's
// search and takes over.
async function analyse() {
  const a = app.state.analysis;
  const gen = ++a.gen;
  const made = a.made || [];
  a.made = null;
  if (a.running && a.conn) a.conn.stop().catch(() => {});
  const live = () => app.state.analysis === a && a.gen === gen;
  let conn;
  try {
    conn = await session(a);
    if (!live()) return;
    const lines = app.prefs.analysisLines;
    if (a.sentLines !== lines) {
      const r = await conn.send('options set MultiPV ' + lines);
      if (!r.error) a.sentLines = lines;
    }
    if (!live()) return;
    const answer = await conn.send('newgame ' + gameStringOf(a.type, pathOf(a.node)));
    if (!live()) return;
    if (answer.error) {
      refused(a, made, answer.error);
      return;
    }
    const gs = answer.lines.filter(isGameString).pop();
    a.position = parseGameString(gs);
    // The session's spelling of each move is the tree's from now on.
    let x = a.node;
    for (let i = a.position.moves.length - 1; i >= 0 && x.parent; i--, x = x.parent) if (!x.main) x.move = a.position.moves[i];
    if (ENDED.includes(a.position.state)) {
      app.render();
      return;
    }
    const valid = await conn.send('validmoves');
    if (!live()) return;
    if (!valid.error && valid.lines.length) a.valid = valid.lines[valid.lines.length - 1].split(';').map((m) => m.trim()).filter(Boolean);
    app.render();
    for (;;) {
      const began = Date.now();
      a.running = true;
      let r;
      try {
        r = await conn.send('bestmove infinite', (line) => {
          if (live()) report(a, line);
        });
      } finally {
        if (a.gen === gen) a.running = false;
      }
      if (!live() || r.error || Date.now() - began < RESTART_AFTER) break;
    }
  } catch (e) {
    if (!live()) return;
    a.error = 'The analysis engine is not available: ' + e.message;
    app.render();
  }
}

// refused takes out of the tree the moves just tried that the session
// refused, and goes back to where they were tried from.
function refused(a, made, why) {
  const from = made.length ? made[0].parent : a.node.parent || a.root;
  for (const n of made) {
    a.nodes.delete(n.id);
    n.parent.children = n.parent.children.filter((c) => c !== n);
  }
  goTo(from);
  a.error = `The engine refused that line: ${why}`;
  app.render();
}

// report reads a line the search prints, "move;depth;score;pv...;multipv=K":
// each completed depth's lines come last to first, so a depth is shown
// whole when its line 1 comes.
function report(a, line) {
  if (line.startsWith('err ')) return;
  const fields = line.split(';');
  let k = 1;
  const m = /^multipv=(\d+)$/.exec(fields[fields.length - 1].trim());
  if (m) {
    k = Number(m[1]);
    fields.pop();
  }
  const r = parseReport(fields.join(';'));
  if (r.depth === undefined || r.score === undefined) return; // the answer, which repeats line 1
  r.multipv = k;
  a.pending.set(k, r);
  if (k !== 1) return;
  const lines = [];
  for (let i = 1; i <= app.prefs.analysisLines; i++) {
    const l = a.pending.get(i);
    if (l && l.depth === r.depth) lines.push(l);
  }
  a.lines = lines;
  a.depth = r.depth;
  renderLines();
  renderEvalBar();
  if (app.onLines) app.onLines();
}

// ---- The whole game's scores --------------------------------------------------

// scoreGame asks the daemon to score the main line (POST /analysis) and
// draws each ply as it comes.
async function scoreGame() {
  const a = app.state.analysis;
  const g = a.graph;
  g.abort = new AbortController();
  const u = new URL('analysis', location.href);
  u.hash = '';
  u.search = '';
  u.searchParams.set('client', PAGE_ID);
  let resp;
  try {
    resp = await fetch(u, { method: 'POST', body: gameStringOf(a.type, a.main.slice(1).map((n) => n.move)), headers: app.authHeaders(), signal: g.abort.signal, cache: 'no-store' });
  } catch (e) {
    if (!g.abort.signal.aborted) graphError(a, e.message);
    return;
  }
  if (!resp.ok) {
    let why = `the daemon answered ${resp.status}`;
    try {
      why = (await resp.json()).error || why;
    } catch {}
    graphError(a, why);
    return;
  }
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = text.indexOf('\n')) >= 0) {
        const line = text.slice(0, nl);
        text = text.slice(nl + 1);
        if (line.trim()) scoreLine(a, JSON.parse(line));
      }
    }
  } catch (e) {
    if (!g.abort.signal.aborted) graphError(a, e.message);
  }
}

function graphError(a, why) {
  if (app.state.analysis !== a) return;
  a.graph.error = 'The game could not be scored: ' + why;
  renderGraph();
}

function scoreLine(a, line) {
  if (app.state.analysis !== a) return;
  const g = a.graph;
  if (line.start) g.start = line.start;
  if (line.ply) g.plies.set(line.ply.ply, line.ply);
  if (line.done) {
    g.done = line.done;
    for (const p of line.done.plies) g.plies.set(p.ply, p);
  }
  if (line.error) g.error = 'The game could not be scored: ' + line.error;
  renderGraph();
  app.renderHistory();
}

// expected is White's expected score for a report of the side to move, by
// the curve the daemon scores games with.
function expected(score, toMove) {
  const curve = app.state.analysis.graph.start ? app.state.analysis.graph.start.curve : null;
  let e;
  if (Math.abs(score) >= 900) e = score > 0 ? 1 : 0;
  else if (curve) e = 1 / (1 + Math.exp(-curve.k * (score * 100 - curve.c)));
  else return null;
  return toMove === 'white' ? e : 1 - e;
}

// startExpected is White's expected score before the first move, which
// only the finished analysis gives (as a score).
function startExpected(g) {
  if (!g.done || !g.start) return null;
  const s = g.done.start;
  if (/^[+-]?\d/.test(s)) return 1 / (1 + Math.exp(-g.start.curve.k * (Number(s) * 100 - g.start.curve.c)));
  return null;
}

// ---- Showing it -----------------------------------------------------------------

export function analysisPosition() {
  const a = app.state.analysis;
  if (a.position) return a.position;
  const ply = plyOf(a.node);
  return { state: ply ? 'InProgress' : 'NotStarted', toMove: ply % 2 ? 'black' : 'white', turn: Math.floor(ply / 2) + 1 };
}

export function analysisMoves() {
  return pathOf(app.state.analysis.node);
}

function positionWords() {
  const a = app.state.analysis;
  const ply = plyOf(a.node);
  const pos = analysisPosition();
  const where = a.node.main ? `Move ${ply} of ${a.main.length - 1}` : `Variation, move ${ply}`;
  const at = ply === 0 ? 'the start' : `${ply % 2 ? 'White' : 'Black'} played ${a.node.move}`;
  const status = { WhiteWins: 'White wins.', BlackWins: 'Black wins.', Draw: 'Draw.' }[pos.state] || `${cap(pos.toMove)} to move.`;
  return `${where}: ${at}. ${status}`;
}

export function renderAnalysis() {
  const a = app.state.analysis;
  $('analysis').hidden = !a;
  for (const id of ['analysis-lines-card']) $(id).hidden = !a;
  $('eval-bar').hidden = !a;
  $('analyse-live').hidden = !!a;
  if (!a) return;
  document.body.dataset.mode = 'analysis';
  $('analysis-title').textContent = `Analysis of ${a.title}`;
  $('analysis-position').textContent = positionWords();
  $('analysis-start').disabled = $('analysis-back').disabled = !a.node.parent;
  $('analysis-forward').disabled = !a.node.children.length;
  $('analysis-end').disabled = !a.node.children.some((c) => c.main === a.node.main);
  $('analysis-main').disabled = a.node.main;
  $('analysis-lines').value = String(app.prefs.analysisLines);
  const focused = document.activeElement;
  if (focused && focused.disabled && focused.closest('#analysis')) $(['analysis-start', 'analysis-back'].includes(focused.id) ? 'analysis-forward' : 'analysis-back').focus();
  const pos = analysisPosition();
  const status = $('status');
  status.dataset.state = pos.state;
  status.dataset.toMove = pos.toMove;
  $('turn').textContent = 'Analysis: ' + ({ WhiteWins: 'White wins.', BlackWins: 'Black wins.', Draw: 'Draw.' }[pos.state] || `${cap(pos.toMove)} to move, turn ${pos.turn}.`);
  $('game-type').textContent = a.type;
  $('remote-info').hidden = true;
  $('waiting').textContent = '';
  $('current-gamestring').value = a.position ? a.position.text : gameStringOf(a.type, pathOf(a.node));
  renderLines();
  renderEvalBar();
  renderGraph();
}

// renderLines lists the engine's lines in the position shown, each move a
// button that plays the line up to it onto the board. The list's items and
// buttons are kept from one depth to the next, their words changed, so that
// a deeper report never replaces a button under the pointer clicking it (or
// the keyboard's focus); a click reads the line as it stands then.
function renderLines() {
  const a = app.state.analysis;
  const list = $('analysis-pv');
  const pos = analysisPosition();
  $('analysis-depth').textContent = ENDED.includes(pos.state)
    ? 'The game is over here.'
    : a.lines.length ? `Depth ${a.depth}, ${pos.toMove === 'white' ? 'White' : 'Black'} to move` : 'Thinking…';
  while (list.children.length > a.lines.length) list.lastElementChild.remove();
  a.lines.forEach((l, i) => {
    let li = list.children[i];
    if (!li) {
      li = document.createElement('li');
      li.dataset.line = String(i + 1);
      const score = document.createElement('span');
      score.className = 'line-score';
      li.append(score);
      list.append(li);
    }
    li.firstElementChild.textContent = formatScore(l.score);
    const pv = l.pv.length ? l.pv : [l.move];
    const buttons = li.querySelectorAll('.pv-move');
    for (let j = pv.length; j < buttons.length; j++) buttons[j].remove();
    pv.forEach((m, j) => {
      let b = buttons[j];
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.className = 'pv-move';
        b.dataset.line = String(i + 1);
        b.dataset.index = String(j);
        li.append(' ', b);
      }
      b.textContent = m;
      b.setAttribute('aria-label', `Line ${i + 1}, ${formatScore(l.score)}: play ${pv.slice(0, j + 1).join(', ')}`);
    });
  });
}

// playLine plays line k (from 1) up to its move j (from 0), as shown.
function playLine(k, j) {
  const l = app.state.analysis.lines[k - 1];
  if (!l) return;
  const pv = l.pv.length ? l.pv : [l.move];
  playMoves(pv.slice(0, j + 1));
}

// renderEvalBar fills the bar beside the board with White's expected score
// by line 1's score.
function renderEvalBar() {
  const a = app.state.analysis;
  const bar = $('eval-bar');
  const pos = analysisPosition();
  let white = 0.5;
  let words = 'No score yet';
  if (ENDED.includes(pos.state)) {
    white = { WhiteWins: 1, BlackWins: 0, Draw: 0.5 }[pos.state];
    words = { WhiteWins: 'White won', BlackWins: 'Black won', Draw: 'Drawn' }[pos.state];
  } else if (a.lines.length) {
    const s = a.lines[0].score;
    const e = expected(s, pos.toMove);
    if (e !== null) white = e;
    const forWhite = pos.toMove === 'white' ? s : -s;
    words = `${formatScore(forWhite)} for White`;
  }
  bar.querySelector('.eval-white').style.height = `${(white * 100).toFixed(1)}%`;
  bar.querySelector('.eval-text').textContent = words.replace(' for White', '');
  bar.setAttribute('aria-valuenow', (white * 100).toFixed(0));
  bar.setAttribute('aria-valuetext', words);
  bar.title = `${words}: White's expected score ${(white * 100).toFixed(0)}%`;
}

const GRAPH_W = 600;
const GRAPH_H = 120;

// renderGraph draws White's expected score over the game: above the middle
// White leads, below Black; each class of mistake a dot; the position shown
// (or where its variation left the main line) a line across.
function renderGraph() {
  const a = app.state.analysis;
  const g = a.graph;
  const svg = $('score-graph');
  const n = a.main.length - 1;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${GRAPH_W} ${GRAPH_H}`);
  const x = (ply) => (n ? (ply / n) * GRAPH_W : 0);
  const y = (e) => (1 - e) * GRAPH_H;
  svg.append(el('rect', { class: 'graph-bg', x: 0, y: 0, width: GRAPH_W, height: GRAPH_H }));
  svg.append(el('line', { class: 'graph-mid', x1: 0, x2: GRAPH_W, y1: GRAPH_H / 2, y2: GRAPH_H / 2 }));
  const points = [];
  const e0 = startExpected(g);
  if (e0 !== null) points.push([0, e0]);
  for (let p = 1; p <= n; p++) {
    const ply = g.plies.get(p);
    if (ply) points.push([p, ply.expected]);
  }
  // Runs of plies known without a gap, each drawn as an area.
  let run = [];
  const runs = [];
  for (const pt of points) {
    if (run.length && pt[0] !== run[run.length - 1][0] + 1) {
      runs.push(run);
      run = [];
    }
    run.push(pt);
  }
  if (run.length) runs.push(run);
  for (const r of runs) {
    const d = r.map(([p, e], i) => `${i ? 'L' : 'M'}${x(p).toFixed(1)} ${y(e).toFixed(1)}`).join(' ');
    svg.append(el('path', { class: 'graph-area', d: `${d} L${x(r[r.length - 1][0]).toFixed(1)} ${GRAPH_H} L${x(r[0][0]).toFixed(1)} ${GRAPH_H} Z` }));
    svg.append(el('path', { class: 'graph-line', d }));
  }
  for (const [p, ply] of g.plies) {
    if (!GLYPHS[ply.class]) continue;
    const dot = el('circle', { class: `graph-mark ${ply.class}`, cx: x(p).toFixed(1), cy: y(ply.expected).toFixed(1), r: 4, 'data-ply': p });
    const t = el('title');
    t.textContent = `${Math.floor((p - 1) / 2) + 1}${p % 2 ? '.' : '…'} ${ply.move}: ${ply.class}`;
    dot.append(t);
    svg.append(dot);
  }
  const at = plyOf(mainAncestor(a.node));
  svg.append(el('line', { class: 'graph-now', x1: x(at), x2: x(at), y1: 0, y2: GRAPH_H }));
  const e = plyExpected(g, at);
  if (e !== null) svg.append(el('circle', { class: 'graph-cursor', cx: x(at).toFixed(1), cy: y(e).toFixed(1), r: 3 }));
  const known = g.plies.size;
  svg.dataset.plies = String(known);
  svg.dataset.done = String(!!g.done);
  $('graph-status').textContent = g.error || (g.done
    ? `Scored by ${g.start.engine} at depth ${g.start.depth}: click the graph, or its arrow keys, to go to a move.`
    : g.start ? `Scoring the game (${known} of ${n} moves, from the last)…` : 'Scoring the game…');
  // A slider over the main line's plies, for the keyboard and a screen
  // reader: its value the ply shown (or where the variation shown left
  // the main line), said with its move and score.
  svg.setAttribute('aria-valuemax', String(n));
  svg.setAttribute('aria-valuenow', String(at));
  svg.setAttribute('aria-valuetext', graphWords(a, at));
}

// plyExpected is White's expected score after ply plies of the main line,
// or null while it is not known.
function plyExpected(g, ply) {
  if (ply === 0) return startExpected(g);
  const p = g.plies.get(ply);
  return p ? p.expected : null;
}

// graphWords says the graph's point at ply: the move, White's expected
// score there and the move's class, as far as they are known.
function graphWords(a, ply) {
  const g = a.graph;
  const n = a.main.length - 1;
  const e = plyExpected(g, ply);
  const scored = g.plies.get(ply);
  let words = ply === 0 ? `The start, of ${n} moves` : `Move ${ply} of ${n}, ${ply % 2 ? 'White' : 'Black'}'s ${a.main[ply].move}`;
  words += e === null ? ': not scored yet' : `: White's expected score ${Math.round(e * 100)}%`;
  if (scored && scored.class) words += `, ${scored.class === 'best' ? 'the best move' : scored.class}`;
  if (!a.node.main) words += '; the variation shown leaves the main line here';
  return words;
}

// GRAPH_KEYS are the score graph's keys, as a slider's: each gives the
// ply to show from the ply shown (at) and the last (n).
const GRAPH_KEYS = {
  ArrowLeft: (at) => at - 1,
  ArrowDown: (at) => at - 1,
  ArrowRight: (at) => at + 1,
  ArrowUp: (at) => at + 1,
  PageDown: (at) => at - 10,
  PageUp: (at) => at + 10,
  Home: () => 0,
  End: (at, n) => n,
};

// renderAnalysisHistory lists the main line, each move marked with its
// class, and the variations tried beside the move they replace.
export function renderAnalysisHistory(list) {
  const a = app.state.analysis;
  const hadFocus = document.activeElement && document.activeElement.matches('#history button.jump');
  list.classList.add('tree');
  const button = (n) => {
    const ply = plyOf(n);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'jump' + (n.main ? '' : ' var');
    b.dataset.node = String(n.id);
    b.dataset.ply = String(ply);
    if (n === a.node) b.setAttribute('aria-current', 'step');
    const turn = document.createElement('span');
    turn.className = 'turn';
    turn.textContent = `${Math.floor((ply - 1) / 2) + 1}${ply % 2 ? '.' : '…'}`;
    const mv = document.createElement('span');
    mv.className = 'mv ' + (ply % 2 ? 'white' : 'black');
    mv.textContent = n.move;
    b.append(turn, ' ', mv);
    let words = `${n.main ? '' : 'variation: '}move ${ply}, ${ply % 2 ? 'White' : 'Black'}'s ${n.move}`;
    const scored = n.main ? a.graph.plies.get(ply) : null;
    if (scored && GLYPHS[scored.class]) {
      const nag = document.createElement('span');
      nag.className = 'nag ' + scored.class;
      nag.textContent = GLYPHS[scored.class];
      b.append(nag);
      b.dataset.class = scored.class;
      words += `, ${scored.class}`;
      b.title = `${scored.class} (lost ${scored.loss.toFixed(3)}); best ${scored.best} (${scored.best_score})` + (scored.line && scored.line.length ? `: ${scored.line.join(', ')}` : '');
    } else if (scored) b.title = `${scored.score}${scored.class ? ', ' + scored.class : ''}`;
    b.setAttribute('aria-label', 'Show the position after ' + words);
    return b;
  };
  // line writes the line that starts at n, following first choices, with
  // each move's other choices in brackets after it.
  const line = (n, into) => {
    for (let x = n; x; x = x.children[0]) {
      into.append(button(x), ' ');
      for (const side of x.children.slice(1)) {
        const span = document.createElement('span');
        span.className = 'variation';
        span.append('( ');
        line(side, span);
        span.append(')');
        into.append(span, ' ');
      }
    }
  };
  for (const n of a.main.slice(1)) {
    const li = document.createElement('li');
    li.dataset.ply = String(plyOf(n));
    li.append(button(n));
    list.append(li);
    const sides = n.parent.children.filter((c) => !c.main);
    for (const side of sides) {
      const v = document.createElement('li');
      v.className = 'variation';
      v.append('( ');
      line(side, v);
      v.append(')');
      list.append(v);
    }
  }
  // Variations from the end of the game.
  const last = a.main[a.main.length - 1];
  for (const side of last.children.filter((c) => !c.main)) {
    const v = document.createElement('li');
    v.className = 'variation';
    line(side, v);
    list.append(v);
  }
  const current = list.querySelector('[aria-current]');
  if (current) current.scrollIntoView({ block: 'nearest' });
  if (hadFocus) (current || $('analysis-back')).focus({ preventScroll: true });
}

export function analysisLines() {
  const a = app.state.analysis;
  return a ? a.lines : [];
}

export function setupAnalysis(hooks) {
  app = hooks;
  const lines = $('analysis-lines');
  for (let i = 1; i <= MAX_LINES; i++) lines.append(new Option(String(i), String(i)));
  lines.value = String(app.prefs.analysisLines);
  lines.addEventListener('change', () => setLines(Number(lines.value)));
  $('analysis-start').addEventListener('click', () => step(app.state.analysis.root));
  $('analysis-back').addEventListener('click', back);
  $('analysis-forward').addEventListener('click', forward);
  $('analysis-end').addEventListener('click', lineEnd);
  $('analysis-main').addEventListener('click', toMainLine);
  $('analysis-close').addEventListener('click', () => closeAnalysis(true));
  $('analysis-pv').addEventListener('click', (e) => {
    const b = e.target.closest('.pv-move');
    if (!b || !app.state.analysis) return;
    const focused = document.activeElement === b;
    playLine(Number(b.dataset.line), Number(b.dataset.index));
    // The new position's lines replace the button: the focus stays with
    // the lines, where Tab reaches the new ones, not on the page.
    if (focused && !b.isConnected) $('analysis-pv').focus({ preventScroll: true });
  });
  $('history').addEventListener('click', (e) => {
    const b = e.target.closest('button.jump[data-node]');
    const a = app.state.analysis;
    if (b && a && a.nodes.has(Number(b.dataset.node))) step(a.nodes.get(Number(b.dataset.node)));
  });
  $('score-graph').addEventListener('click', (e) => {
    const a = app.state.analysis;
    if (!a) return;
    const box = e.currentTarget.getBoundingClientRect();
    const n = a.main.length - 1;
    jumpToPly(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  // The graph's own keys, when it has the focus: along the main line, from
  // the ply it shows.
  $('score-graph').addEventListener('keydown', (e) => {
    const a = app.state.analysis;
    const key = GRAPH_KEYS[e.key];
    if (!a || !key || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const at = plyOf(mainAncestor(a.node));
    const to = Math.max(0, Math.min(a.main.length - 1, key(at, a.main.length - 1)));
    if (to !== at || !a.node.main) jumpToPly(to);
  });
  // The keys of the analysis board, wherever the focus is but in a field,
  // a dialog, on the board, whose arrows go from piece to piece, or on the
  // graph, whose keys are its own.
  document.addEventListener('keydown', (e) => {
    const a = app.state.analysis;
    if (!a || e.altKey || e.ctrlKey || e.metaKey || document.querySelector('dialog[open]')) return;
    if (e.target.closest('input, select, textarea')) return;
    if (e.target.closest('#board') && e.key in { ArrowLeft: 1, ArrowRight: 1, ArrowUp: 1, ArrowDown: 1 }) return;
    if (e.target.closest('#score-graph') && e.key in GRAPH_KEYS) return;
    const keys = {
      ArrowLeft: back,
      ArrowRight: forward,
      Home: () => step(a.root),
      End: lineEnd,
      m: toMainLine,
      M: toMainLine,
      '+': () => setLines(app.prefs.analysisLines + 1),
      '-': () => setLines(app.prefs.analysisLines - 1),
    };
    let act = keys[e.key];
    if (!act && /^[1-5]$/.test(e.key)) {
      const l = a.lines[Number(e.key) - 1];
      if (l) act = () => playMoves([l.pv.length ? l.pv[0] : l.move]);
    }
    if (!act) return;
    e.preventDefault();
    act();
  });
}
