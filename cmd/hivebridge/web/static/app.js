// The viewer: a UHP viewer on the daemon's /uhp WebSocket. It knows no
// rules. The engine's GameStrings say what the game is, its validmoves what
// may be played; the page draws them, sends what the person chooses, and asks
// the engine's searcher to play the sides the computer plays.

import { GAME_TYPES, BUGS, ENDED, parseGameString, boardOf, isGameString, parseMove, parseReport, formatScore, pieceInfo } from './notation.js';
import { UHPConnection, ConnectionClosed } from './uhp.js';
import { drawBoard, pieceIcon } from './board.js';
import { setupArchive, renderReplay, renderReplayHistory, replayPosition, replayWords, archiveGet, openReplay } from './archive.js';
import { setupAnalysis, openAnalysis, closeAnalysis, renderAnalysis, renderAnalysisHistory, analysisPosition, analysisMoves, analysisLines, playMoves } from './analysis.js';
import { setupExplorer, refreshExplorer, renderScores } from './explorer.js';
import { setupRecords } from './records.js';
import { setupTests } from './tests.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'hivebridge.token';
const PREFS_KEY = 'hivebridge.prefs';
const LOG_LIMIT = 400;

const prefs = Object.assign(
  { gameType: 'Base+MLP', white: 'human', black: 'computer', limitKind: 'depth', limitValue: 3, remoteColor: '', analysisLines: 3 },
  readJSON(localStorage, PREFS_KEY),
);

const state = {
  conn: null,
  engineId: '',
  game: null, // the engine's last GameString, parsed
  board: null,
  drawError: '', // why the game's board cannot be drawn
  boardError: '', // why the last render could not draw the board
  pending: null, // the person's move in a remote game, shown while the opponent answers
  valid: [], // the validmoves answer, when a person is to move
  selected: null, // the piece whose destinations are shown
  remote: null, // { me, outcome } in a remote game: the person's colour, and how it ended
  thinking: null, // { color, report, done }
  searching: false,
  waitingFor: '', // what the page waits for, in words
  inFlight: 0, // commands sent and not yet answered
  gen: 0, // counts the games: an answer for an older one is dropped
  message: '',
  focusAfter: null, // the piece to focus once drawn, after a move by keyboard
  replay: null, // an archived game shown move by move (archive.js): { game, parsed, moves, ply, board, error }
  file: null, // the game file opened last (records.js): { name, games }
  analysis: null, // the analysis board (analysis.js): the tree of the game and its variations, the engine's lines
};

function readJSON(storage, key) {
  try {
    return JSON.parse(storage.getItem(key) || '{}') || {};
  } catch {
    return {};
  }
}

// ---- Connecting -----------------------------------------------------------

// The token never rides in an address, where proxies log it: fetches carry
// it in their Authorization header, and the WebSocket, whose headers a page
// cannot set, in its first message.

function wsURL() {
  const u = new URL('uhp', location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.hash = '';
  u.search = '';
  return u.href;
}

function storedToken() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

// authHeaders are the headers of a fetch that carry token, by default the
// tab's: none without one.
function authHeaders(token = storedToken()) {
  return token ? { Authorization: 'Bearer ' + token } : {};
}

// probe asks the daemon's /healthz, with token in the header if given, and
// resolves with the status: asked without a token, 401 says the daemon
// needs one (/healthz is behind the same token as /uhp); 0 when the daemon
// cannot be reached.
async function probe(token = '') {
  try {
    const u = new URL('healthz', location.href);
    u.hash = '';
    u.search = '';
    const resp = await fetch(u, { cache: 'no-store', headers: authHeaders(token) });
    return resp.status;
  } catch {
    return 0;
  }
}

function askToken(refused) {
  const dialog = $('token-dialog');
  $('token-error').textContent = refused ? 'The daemon refused that token.' : '';
  $('token-input').value = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'connect' ? $('token-input').value.trim() : null), { once: true });
  });
}

// start connects: it asks /healthz whether the daemon needs a token, takes
// the tab's or asks for one when it does, and opens the socket, whose first
// message is then "auth <token>". A daemon without a token answers on
// connect, and would take an auth message for an unknown command: none is
// sent to it. A refused token is asked for again.
async function start() {
  $('reconnect').hidden = true;
  setConnection('connecting', 'Connecting…');
  let needsToken = (await probe()) === 401;
  let refused = false;
  for (;;) {
    let token = '';
    if (needsToken) {
      token = storedToken();
      if (!token) {
        const given = await askToken(refused);
        if (!given) {
          setConnection('down', 'Not connected: the daemon needs its token.');
          $('reconnect').hidden = false;
          return;
        }
        sessionStorage.setItem(TOKEN_KEY, given);
        token = given;
      }
    }
    setConnection('connecting', 'Connecting…');
    const conn = new UHPConnection(wsURL(), { onLog: log, onClose: (e) => closed(conn, e) });
    let info;
    try {
      info = await conn.open(token);
    } catch (e) {
      setConnection('down', 'Cannot reach the engine: ' + e.message);
      $('reconnect').hidden = false;
      return;
    }
    if (info.error && /^Bad token\b/.test(info.error) && token) {
      conn.close();
      sessionStorage.removeItem(TOKEN_KEY);
      refused = true;
      continue;
    }
    if (info.error && /^Authentication required\b/.test(info.error) && !token) {
      // The daemon has a token after all (it was restarted with one).
      conn.close();
      needsToken = true;
      continue;
    }
    if (info.error) {
      conn.close();
      setConnection('down', info.error);
      $('reconnect').hidden = false;
      return;
    }
    state.conn = conn;
    state.engineId = (info.lines.find((l) => l.startsWith('id ')) || 'id ?').slice(3);
    setConnection('up', 'Connected to ' + state.engineId);
    // The engine's thinking, where it reports it; an engine without the
    // option just says err, which changes nothing.
    await conn.send('options set ReportIntermediateBestMoves True');
    const fromURL = gameFromURL();
    if (fromURL && !(await replaceGame('newgame ' + fromURL, null))) {
      const why = state.message;
      await replaceGame('newgame ' + prefs.gameType, null);
      state.message = `The engine refused the game in the page's address (${why}); here is a new one.`;
      render();
    } else if (!fromURL) {
      await replaceGame('newgame ' + prefs.gameType, null);
    }
    return;
  }
}

function closed(conn, event) {
  if (state.conn !== conn) return;
  state.conn = null;
  state.searching = false;
  state.waitingFor = '';
  state.gen++;
  if (state.remote && !over()) state.remote.outcome = 'The connection closed: the remote game is over.';
  setConnection('down', 'Disconnected' + (event.reason ? ': ' + event.reason : '') + '.');
  $('reconnect').hidden = false;
  render();
}

function setConnection(kind, text) {
  const el = $('connection');
  el.dataset.state = kind;
  el.textContent = text;
  // A phone's header shows only the start of the words: the rest on hover.
  el.title = text;
}

// ---- The URL keeps the game -----------------------------------------------

function encodeGame(gs) {
  return encodeURIComponent(gs).replace(/%3B/g, ';').replace(/%2F/g, '/').replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%2B/g, '+');
}

function gameFromURL() {
  const h = location.hash.slice(1);
  if (!h) return '';
  try {
    return decodeURIComponent(h).trim();
  } catch {
    return '';
  }
}

function keepInURL() {
  if (!state.game) return;
  const hash = '#' + encodeGame(state.game.text);
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// ---- Talking to the engine ------------------------------------------------

// run sends one command, showing what the page waits for until every
// command sent has its answer.
async function run(command, waitingFor, onLine) {
  if (!state.conn) throw new ConnectionClosed('not connected');
  state.inFlight++;
  state.waitingFor = waitingFor || 'Waiting for the engine…';
  render();
  try {
    return await state.conn.send(command, onLine);
  } finally {
    if (--state.inFlight === 0) state.waitingFor = '';
  }
}

function over() {
  return !!state.game && ENDED.includes(state.game.state);
}

function playerOf(color) {
  return state.remote ? (color === state.remote.me ? 'human' : 'remote') : prefs[color];
}

// playerName names a player of the live game in a record: a person as the
// archive names one, the computer by its engine's id.
function playerName(color) {
  return { human: 'viewer', computer: state.engineId || 'computer', remote: 'opponent' }[playerOf(color)];
}

// applyGameString makes the engine's GameString the page's game.
function applyGameString(text) {
  const before = state.game ? state.game.moves.length : 0;
  const game = parseGameString(text);
  state.game = game;
  state.pending = null;
  try {
    state.board = boardOf(game);
    state.drawError = '';
  } catch (e) {
    state.drawError = 'Cannot draw this game: ' + e.message;
  }
  keepInURL();
  if (game.moves.length > before) {
    const last = game.moves[game.moves.length - 1];
    const who = game.moves.length % 2 === 1 ? 'White' : 'Black';
    announce(`${who} played ${last}. ${statusWords()}`);
  }
}

function lastGameString(lines) {
  const gs = lines.filter(isGameString);
  return gs.length ? gs[gs.length - 1] : null;
}

// replaceGame runs a command that starts a game (newgame in its forms) and
// makes its answer the game. It reports whether the engine took it.
async function replaceGame(command, remote) {
  const gen = ++state.gen;
  state.replay = null;
  state.remote = remote;
  state.selected = null;
  state.valid = [];
  state.thinking = null;
  state.message = '';
  let answer;
  try {
    answer = await run(command, remote ? 'Looking for a partner…' : 'Starting the game…');
  } catch {
    return false;
  }
  if (gen !== state.gen) return false;
  const gs = lastGameString(answer.lines);
  if (answer.error) {
    if (!remote || !gs) state.message = answer.error;
    if (!gs) {
      state.remote = null;
      render();
      return false;
    }
  }
  if (gs) {
    applyGameString(gs);
    if (remote) {
      remote.me = state.game.toMove;
      if (answer.error) remote.outcome = outcomeOf(answer.error);
      announce(`You play ${cap(remote.me)}. ${statusWords()}`);
    }
  }
  await settle();
  return !answer.error;
}

// settle fetches what the position needs once the engine has answered: the
// legal moves when a person is to move, or the computer's move.
async function settle() {
  state.selected = null;
  state.valid = [];
  const gen = state.gen;
  if (state.game && !over() && state.conn && playerOf(state.game.toMove) === 'human') {
    let answer;
    try {
      answer = await run('validmoves', 'Asking for the legal moves…');
    } catch {
      return;
    }
    if (gen !== state.gen) return;
    if (!answer.error && answer.lines.length) state.valid = answer.lines[answer.lines.length - 1].split(';').map((m) => m.trim()).filter(Boolean);
  }
  render();
  computerTurn();
}

function bestMoveCommand() {
  const v = Math.max(1, Math.round(Number(prefs.limitValue) || 1));
  if (prefs.limitKind === 'time') {
    const two = (n) => String(n).padStart(2, '0');
    return `bestmove time ${two(Math.floor(v / 3600))}:${two(Math.floor(v / 60) % 60)}:${two(v % 60)}`;
  }
  return `bestmove depth ${v}`;
}

// computerTurn lets the engine's searcher move for the side the computer
// plays, showing its thinking as it reports it.
async function computerTurn() {
  if (state.searching || !state.conn || !state.game || over() || state.remote) return;
  const color = state.game.toMove;
  if (prefs[color] !== 'computer') return;
  const gen = state.gen;
  state.searching = true;
  state.thinking = { color, report: null, done: false };
  let answer;
  try {
    answer = await run(bestMoveCommand(), `${cap(color)} (computer) is thinking…`, (line) => {
      if (gen !== state.gen || line.startsWith('err ')) return;
      const report = parseReport(line);
      const last = state.thinking.report;
      // The answer, a bare MoveString, repeats the last report's move:
      // keep that report's depth, score and line.
      if (report.depth === undefined && report.score === undefined && last && last.move === report.move) return;
      state.thinking.report = report;
      renderThinking();
    });
  } catch {
    return;
  } finally {
    state.searching = false;
  }
  if (gen !== state.gen || prefs[color] !== 'computer' || state.game.toMove !== color) {
    settle(); // the game changed meanwhile: start again from it
    return;
  }
  if (answer.error || answer.lines.length === 0) {
    state.message = answer.error || 'The engine answered no move.';
    render();
    return;
  }
  state.thinking.done = true;
  const move = answer.lines[answer.lines.length - 1].split(';')[0].trim();
  await play(move);
}

// play sends a move; in a remote game the answer holds the opponent's
// reply, or why there is none.
async function play(text, byKeyboard = false) {
  const gen = state.gen;
  const remote = state.remote;
  state.selected = null;
  state.valid = [];
  state.message = '';
  let moved = null;
  try {
    moved = parseMove(text);
  } catch {}
  if (remote) state.pending = text;
  state.focusAfter = byKeyboard && moved && !moved.pass ? moved.piece : null;
  let answer;
  try {
    answer = await run(text === 'pass' ? 'pass' : 'play ' + text, remote ? 'Waiting for your opponent…' : 'Playing…');
  } catch {
    return;
  }
  if (gen !== state.gen) return;
  const gs = lastGameString(answer.lines);
  if (gs) applyGameString(gs);
  state.pending = null;
  if (answer.error) {
    if (remote && gs) remote.outcome = outcomeOf(answer.error);
    else state.message = answer.error;
  }
  await settle();
  state.focusAfter = null; // shown by now, or the move was refused
}

// outcomeOf puts in words why a remote game ended without a move: the
// engine reports "The remote player could not move and forfeits: <why>",
// where why is "<Colour> forfeited: <reason>", "<Colour> left the session",
// or a time out.
function outcomeOf(error) {
  const why = error.replace(/^.*forfeits: /, '');
  if (/left the session/.test(why)) return `Your opponent disconnected (${why}).`;
  if (/forfeited/.test(why)) return `Your opponent forfeited (${why}).`;
  if (/started a new game/.test(why)) return `Your opponent left for a new game (${why}).`;
  if (/did not move within/.test(why)) return `Your opponent ran out of time (${why}).`;
  return why;
}

async function undo() {
  if (!state.game || state.remote || state.game.moves.length === 0) return;
  // When the computer made the last move in reply to a person, take back
  // both, so that the person moves again.
  const toMove = state.game.toMove;
  const lastMover = toMove === 'white' ? 'black' : 'white';
  const n = state.game.moves.length >= 2 && prefs[toMove] === 'human' && prefs[lastMover] === 'computer' ? 2 : 1;
  const gen = ++state.gen;
  state.thinking = null;
  state.message = '';
  let answer;
  try {
    answer = await run('undo ' + n, 'Undoing…');
  } catch {
    return;
  }
  if (gen !== state.gen) return;
  if (answer.error) state.message = answer.error;
  const gs = lastGameString(answer.lines);
  if (gs) applyGameString(gs);
  await settle();
}

async function forfeit() {
  if (!state.game || over()) return;
  const gen = ++state.gen;
  let answer;
  try {
    answer = await run('play forfeit resigned', 'Forfeiting…');
  } catch {
    return;
  }
  if (gen !== state.gen) return;
  if (answer.error) state.message = answer.error;
  const gs = lastGameString(answer.lines);
  if (gs) {
    applyGameString(gs);
    const you = state.remote ? 'You' : cap(state.game.toMove);
    const outcome = `${you} forfeited.`;
    if (state.remote) state.remote.outcome = outcome;
    else state.message = outcome;
  }
  await settle();
}

// ---- Showing it -----------------------------------------------------------

const cap = (s) => s[0].toUpperCase() + s.slice(1);

function statusWords() {
  const g = state.game;
  if (!g) return '';
  switch (g.state) {
    case 'WhiteWins':
      return 'White wins.';
    case 'BlackWins':
      return 'Black wins.';
    case 'Draw':
      return 'Draw.';
  }
  return `${cap(g.toMove)} to move, turn ${g.turn}.`;
}

function announce(text) {
  $('announce').textContent = text;
}

function log(dir, text) {
  const list = $('protocol-log');
  const li = document.createElement('li');
  li.dataset.dir = dir === '>' ? 'out' : 'in';
  li.textContent = text.replace(/\n$/, '');
  list.append(li);
  while (list.childElementCount > LOG_LIMIT) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

// shownBoard is the board with a remote move waiting for its reply.
function shownBoard() {
  if (state.analysis) return state.analysis.board;
  if (state.replay) return state.replay.board;
  if (!state.pending || !state.board) return state.board;
  try {
    return boardOf({ type: state.game.type, moves: [...state.game.moves, state.pending] });
  } catch {
    return state.board;
  }
}

// shownMoves are the moves up to the position shown.
function shownMoves() {
  if (state.analysis) return analysisMoves();
  if (state.replay) return state.replay.moves.slice(0, state.replay.ply);
  if (!state.game) return [];
  return state.pending ? [...state.game.moves, state.pending] : state.game.moves;
}

function movesByPiece() {
  const byPiece = new Map();
  if (state.replay) return byPiece; // nothing is played in a replay
  for (const text of state.analysis ? state.analysis.valid : state.valid) {
    let m;
    try {
      m = parseMove(text);
    } catch {
      continue;
    }
    if (m.pass) continue;
    if (!byPiece.has(m.piece)) byPiece.set(m.piece, new Map());
    byPiece.get(m.piece).set(text, m);
  }
  return byPiece;
}

function render() {
  renderStatus();
  renderBoard();
  renderHands();
  renderHistory();
  renderThinking();
  renderControls();
  refreshExplorer();
  renderMessage(); // last: it says what went wrong drawing the rest
}

function renderStatus() {
  renderReplay();
  renderAnalysis();
  if (state.replay || state.analysis) return;
  const g = state.game;
  const status = $('status');
  status.dataset.state = g ? g.state : '';
  status.dataset.toMove = g ? g.toMove : '';
  let text = g ? statusWords() : 'No game.';
  if (g && !over()) {
    const who = playerOf(g.toMove);
    if (who === 'computer') text += ' (computer)';
    if (who === 'remote') text += ' (your opponent)';
    if (who === 'human' && state.remote) text += ' (you)';
  }
  $('turn').textContent = text;
  $('game-type').textContent = g ? g.type.text : '';
  $('remote-info').textContent = state.remote ? (state.remote.outcome || (state.remote.me ? `Remote game: you play ${cap(state.remote.me)}.` : 'Remote game.')) : '';
  $('remote-info').hidden = !state.remote;
  $('waiting').textContent = state.waitingFor;
}

// renderMessage shows what went wrong: with the game or its drawing, in
// this render, and what the page has to say.
function renderMessage() {
  const msg = (state.analysis ? [state.analysis.error, state.boardError] : state.replay ? [state.replay.error, state.boardError] : [state.drawError, state.boardError, state.message]).filter(Boolean).join(' ');
  $('message').textContent = msg;
  $('message').hidden = !msg;
}

function renderBoard() {
  state.boardError = '';
  const svg = $('board');
  const active = document.activeElement;
  const hadFocus = svg.contains(active);
  const focusKey = hadFocus ? active.dataset.move || active.dataset.piece : null;
  const focusCell = hadFocus && active !== svg ? [active.dataset.q, active.dataset.r] : null;
  const board = shownBoard();
  if (!board) {
    svg.replaceChildren();
    return;
  }
  const byPiece = movesByPiece();
  const destinations = state.selected && byPiece.has(state.selected) ? byPiece.get(state.selected) : new Map();
  // The piece that moved last, unless the last move was a pass.
  let lastCell = null;
  const moves = shownMoves();
  if (moves.length) {
    try {
      const m = parseMove(moves[moves.length - 1]);
      if (!m.pass) lastCell = board.cellOf.get(m.piece) ?? null;
    } catch {}
  }
  try {
    drawBoard(svg, { board, destinations, movable: new Set(byPiece.keys()), selected: state.selected, lastCell, lost: lostQueens(board) });
  } catch (e) {
    state.boardError = 'Cannot draw the destinations: ' + e.message;
  }
  svg.setAttribute('aria-label', `The hive: ${board.stacks.size} stacks. ${state.analysis ? $('analysis-position').textContent : state.replay ? replayWords() : statusWords()}`);
  // Keep the keyboard where it was, or, after a move chosen by keyboard, on
  // the piece that moved; where that is gone (a reply climbed onto it, the
  // destinations went with the move), on what now stands on its cell, or
  // else on the board itself, whose arrows lead back to the pieces: never
  // on the page, a dozen Tabs away.
  const stackAt = (cell) => cell && svg.querySelector(`.piece[data-q="${cell[0]}"][data-r="${cell[1]}"]`);
  let target = null;
  if (state.focusAfter) {
    const cell = board.cellOf.get(state.focusAfter);
    target = cell ? stackAt(cell.split(',')) : null;
    if (target) state.focusAfter = null;
  }
  if (!target && focusKey) target = svg.querySelector(`[data-move="${CSS.escape(focusKey)}"], .piece[data-piece="${CSS.escape(focusKey)}"]`);
  if (!target) target = stackAt(focusCell);
  if (!target && (hadFocus || state.focusAfter)) target = svg;
  if (target && target !== active) target.focus({ preventScroll: true });
}

// lostQueens marks the Queen Bee of each side the game says lost, when the
// hive surrounds it (a side can also lose by forfeit).
function lostQueens(board) {
  const lost = new Set();
  const g = state.analysis ? analysisPosition() : state.replay ? replayPosition() : state.game;
  if (!g) return lost;
  const losers = { WhiteWins: ['b'], BlackWins: ['w'], Draw: ['w', 'b'] }[g.state] || [];
  for (const c of losers) {
    const at = board.cellOf.get(c + 'Q');
    if (at && board.neighbours(at).length === 6 && board.top(at) === c + 'Q') lost.add(c + 'Q');
  }
  return lost;
}

function renderHands() {
  const byPiece = movesByPiece();
  for (const color of ['white', 'black']) {
    const box = $('hand-' + color);
    const shown = state.analysis ? analysisPosition() : state.replay ? replayPosition() : state.game;
    const ended = state.analysis || state.replay ? ENDED.includes(shown.state) : over();
    box.dataset.toMove = String(!!shown && !ended && shown.toMove === color);
    const list = box.querySelector('.pieces');
    const hadFocus = list.contains(document.activeElement) ? document.activeElement.dataset.bug : null;
    list.replaceChildren();
    const board = shownBoard();
    if (!board) continue;
    for (const { bug, names } of board.hand(color[0])) {
      if (names.length === 0) continue;
      const placeable = names.find((n) => byPiece.has(n));
      const name = placeable || names[0];
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'hand-piece' + (state.selected === name ? ' selected' : '');
      b.dataset.piece = name;
      b.dataset.bug = bug;
      b.dataset.count = String(names.length);
      b.disabled = !placeable;
      b.setAttribute('aria-pressed', String(state.selected === name));
      b.setAttribute('aria-label', `${color} ${BUGS[bug].name}, ${names.length} in hand` + (placeable ? (state.selected === name ? ', selected' : ', can be placed') : ''));
      b.append(pieceIcon(name));
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = '×' + names.length;
      count.setAttribute('aria-hidden', 'true');
      b.append(count);
      list.append(b);
      if (hadFocus === bug) b.focus({ preventScroll: true });
    }
    if (!list.childElementCount) {
      const empty = document.createElement('span');
      empty.className = 'empty';
      empty.textContent = 'all pieces played';
      list.append(empty);
    }
  }
}

function renderHistory() {
  const list = $('history');
  list.replaceChildren();
  list.classList.remove('tree');
  if (state.analysis) {
    renderAnalysisHistory(list);
    return;
  }
  if (state.replay) {
    renderReplayHistory(list);
    return;
  }
  if (!state.game) return;
  const moves = shownMoves();
  moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    if (state.pending && i === moves.length - 1) li.className = 'pending';
    const turn = document.createElement('span');
    turn.className = 'turn';
    turn.textContent = `${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}`;
    const mv = document.createElement('span');
    mv.className = 'mv ' + (i % 2 ? 'black' : 'white');
    mv.textContent = m;
    li.append(turn, ' ', mv);
    list.append(li);
  });
  list.scrollTop = list.scrollHeight;
  const current = $('current-gamestring');
  current.value = state.game.text;
}

function renderThinking() {
  const t = state.thinking;
  $('engine-id').textContent = state.engineId;
  const box = $('thinking');
  box.dataset.active = String(!!t && !t.done);
  if (!t) {
    $('think-title').textContent = 'No search yet.';
    for (const id of ['think-depth', 'think-score', 'think-move', 'think-pv']) $(id).textContent = '–';
    return;
  }
  $('think-title').textContent = t.done ? `${cap(t.color)}'s last search` : `${cap(t.color)} is thinking…`;
  const r = t.report || {};
  $('think-depth').textContent = r.depth !== undefined ? String(r.depth) : '–';
  const score = formatScore(r.score);
  $('think-score').textContent = score ? `${score} for ${cap(t.color)}` : '–';
  $('think-move').textContent = r.move || '–';
  const pv = $('think-pv');
  if (r.pv && r.pv.length) {
    pv.replaceChildren();
    r.pv.forEach((m, i) => {
      const span = document.createElement('span');
      span.textContent = m;
      pv.append(...(i ? ['  ', span] : [span]));
    });
  } else pv.textContent = '–';
}

function renderControls() {
  const g = state.game;
  const live = !!state.conn && !state.replay && !state.analysis;
  const myTurn = g && !over() && playerOf(g.toMove) === 'human' && !state.pending;
  $('pass').disabled = !live || !myTurn || !(state.valid.length === 1 && state.valid[0].toLowerCase() === 'pass');
  $('undo').disabled = !live || !g || !!state.remote || g.moves.length === 0;
  $('forfeit').disabled = !live || !myTurn;
  for (const id of ['new-game', 'play-person', 'load-button']) $(id).disabled = !state.conn;
  $('analyse-live').disabled = !g || !!state.remote;
}

// ---- Choosing moves -------------------------------------------------------

function select(piece, byKeyboard) {
  if (!movesByPiece().has(piece)) return;
  state.selected = state.selected === piece ? null : piece;
  render();
  if (state.selected && byKeyboard) {
    const first = $('board').querySelector('.dest');
    if (first) first.focus();
  }
}

function deselect(byKeyboard) {
  const was = state.selected;
  if (!was) return;
  state.selected = null;
  render();
  if (byKeyboard) {
    const el = document.querySelector(`#board .piece[data-piece="${was}"], .hand-piece[data-piece="${was}"]`);
    if (el) el.focus();
  }
}

function activate(target, byKeyboard) {
  const dest = target.closest('.dest');
  if (dest && state.analysis) {
    let moved = null;
    try {
      moved = parseMove(dest.dataset.move);
    } catch {}
    state.focusAfter = byKeyboard && moved && !moved.pass ? moved.piece : null;
    playMoves([dest.dataset.move]);
    return;
  }
  if (dest) {
    play(dest.dataset.move, byKeyboard);
    return;
  }
  const piece = target.closest('.piece');
  if (piece && piece.classList.contains('movable')) {
    select(piece.dataset.piece, byKeyboard);
    return;
  }
  deselect(false);
}

function showStack(piece) {
  const tip = $('stack-tip');
  if (!piece || Number(piece.dataset.height) < 2) {
    tip.hidden = true;
    return;
  }
  const stack = piece.dataset.stack.split(' ').reverse();
  tip.replaceChildren();
  const title = document.createElement('p');
  title.textContent = `Stack of ${stack.length}, top first:`;
  tip.append(title);
  const ol = document.createElement('ol');
  for (const p of stack) {
    const li = document.createElement('li');
    li.append(pieceIcon(p, 30), ' ', pieceInfo(p).words);
    ol.append(li);
  }
  tip.append(ol);
  const area = $('board-wrap').getBoundingClientRect();
  const box = piece.getBoundingClientRect();
  tip.hidden = false;
  const left = Math.min(box.right - area.left + 6, area.width - tip.offsetWidth - 4);
  tip.style.left = Math.max(4, left) + 'px';
  tip.style.top = Math.max(4, box.top - area.top) + 'px';
}

// ---- Moving the focus on the board ----------------------------------------

// ARROWS are the screen directions of the arrow keys.
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// boardStops are the places the arrow keys stop at: one for each cell, its
// destination where the selected piece has one (a climb's destination is
// drawn over the piece it climbs onto, and takes the click there too),
// else its piece. Each has its row (r) and its place across, in hex widths.
function boardStops(board) {
  const stops = new Map();
  for (const el of board.querySelectorAll('.piece[tabindex], .dest[tabindex]')) stops.set(`${el.dataset.q},${el.dataset.r}`, el);
  return [...stops.values()].map((el) => ({ el, row: Number(el.dataset.r), x: Number(el.dataset.q) + Number(el.dataset.r) / 2 }));
}

// arrowTarget returns the stop the arrow [dx, dy] leads to from the
// focused piece or destination, by rows: Left and Right go to the nearest
// stop along the same row, Up and Down to the nearest stop across in the
// nearest row above or below that has one. Of the two hexes above, Up
// takes the right one, of the two below Down takes the left one, so that
// Up then Down comes back. So every stop is reached: its row by Up and
// Down, then along it. From the board itself (where the focus waits when
// what it was on is gone), an arrow goes to the last move's piece, or the
// first stop. Tab still reaches everything in reading order.
function arrowTarget(board, from, [dx, dy]) {
  const stops = boardStops(board);
  if (from === board) return (stops.find((s) => s.el.classList.contains('last')) || stops[0] || { el: null }).el;
  const row = Number(from.dataset.r);
  const x = Number(from.dataset.q) + row / 2;
  let best = null;
  let bestCost = Infinity;
  if (dx) {
    for (const s of stops) {
      const along = (s.x - x) * dx;
      if (s.row === row && along > 0 && along < bestCost) [best, bestCost] = [s, along];
    }
    return best && best.el;
  }
  let next = null;
  for (const s of stops) if ((s.row - row) * dy > 0 && (next === null || Math.abs(s.row - row) < Math.abs(next - row))) next = s.row;
  for (const s of stops) {
    if (s.row !== next) continue;
    const cost = Math.abs(s.x - x) + 1e-6 * (s.x - x) * dy; // the tie: right going up, left going down
    if (cost < bestCost) [best, bestCost] = [s, cost];
  }
  return best && best.el;
}

// ---- The analysis board ---------------------------------------------------

// analyseShown opens the analysis board on the game shown: a replay's (an
// archived game, a file's) at the move shown, going back to the replay when
// closed, or the live game at its last move.
function analyseShown() {
  const r = state.replay;
  if (r) {
    const g = r.game;
    const title = g.file ? `${g.file}${g.count > 1 ? `, game ${g.index + 1}` : ''}` : `game ${g.id}`;
    openAnalysis({ title: `${title}: ${g.white || '–'} v ${g.black || '–'}`, gameString: r.parsed.text, ply: r.ply, back: () => (state.replay = r) });
    return;
  }
  if (!state.game || state.remote) return;
  openAnalysis({ title: 'the live game', gameString: state.game.text, ply: state.game.moves.length, back: null });
}

// ---- Wiring ---------------------------------------------------------------

function setupControls() {
  const typeSelect = $('type-select');
  for (const t of GAME_TYPES) typeSelect.append(new Option(t, t, false, t === prefs.gameType));
  $('player-white').value = prefs.white;
  $('player-black').value = prefs.black;
  $('limit-kind').value = prefs.limitKind;
  $('limit-value').value = String(prefs.limitValue);
  $('remote-color').value = prefs.remoteColor;
  const save = () => {
    prefs.gameType = typeSelect.value;
    prefs.white = $('player-white').value;
    prefs.black = $('player-black').value;
    prefs.limitKind = $('limit-kind').value;
    prefs.limitValue = Math.max(1, Math.round(Number($('limit-value').value) || 1));
    prefs.remoteColor = $('remote-color').value;
    $('limit-unit').textContent = prefs.limitKind === 'time' ? 'seconds' : 'plies';
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  };
  save();
  for (const id of ['type-select', 'limit-kind', 'limit-value', 'remote-color']) $(id).addEventListener('change', save);
  for (const id of ['player-white', 'player-black']) {
    $(id).addEventListener('change', () => {
      save();
      if (!state.remote && !state.waitingFor) settle();
    });
  }
  $('new-game').addEventListener('click', () => replaceGame('newgame ' + prefs.gameType, null));
  $('play-person').addEventListener('click', () => replaceGame(['newgame remote', prefs.gameType, prefs.remoteColor].filter(Boolean).join(' '), { me: null, outcome: '' }));
  $('pass').addEventListener('click', () => play('pass'));
  $('undo').addEventListener('click', undo);
  $('forfeit').addEventListener('click', forfeit);
  $('reconnect').addEventListener('click', start);
  setupArchive({ state, render, announce, replaceGame, authHeaders });
  setupAnalysis({ state, render, renderHistory, announce, authHeaders, storedToken, wsURL, log, prefs, savePrefs: () => localStorage.setItem(PREFS_KEY, JSON.stringify(prefs)), onLines: renderScores });
  setupExplorer({
    state, archiveGet, analysisLines, analysisPosition, playMoves,
    gameString: () => $('current-gamestring').value,
    openReplay: (id) => {
      closeAnalysis(false);
      openReplay(id);
    },
  });
  $('analyse-live').addEventListener('click', analyseShown);
  $('replay-analyse').addEventListener('click', analyseShown);
  // A opens the analysis board on the game shown, wherever the focus is
  // but in a field or a dialog.
  document.addEventListener('keydown', (e) => {
    if ((e.key !== 'a' && e.key !== 'A') || state.analysis || e.altKey || e.ctrlKey || e.metaKey || document.querySelector('dialog[open]')) return;
    if (e.target.closest('input, select, textarea')) return;
    e.preventDefault();
    analyseShown();
  });
  setupRecords({ state, authHeaders, playerName });
  setupTests();
  $('copy').addEventListener('click', async () => {
    const text = $('current-gamestring').value;
    try {
      await navigator.clipboard.writeText(text);
      $('copy-status').textContent = 'Copied.';
    } catch {
      $('current-gamestring').select();
      $('copy-status').textContent = document.execCommand('copy') ? 'Copied.' : 'Select the text and copy it.';
    }
    setTimeout(() => ($('copy-status').textContent = ''), 3000);
  });
  $('load-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('load-input').value.trim();
    if (!text) return;
    if (await replaceGame('newgame ' + text, null)) $('load-input').value = '';
  });
  window.addEventListener('hashchange', () => {
    const gs = gameFromURL();
    if (gs && state.conn && (!state.game || gs !== state.game.text)) replaceGame('newgame ' + gs, null);
  });

  const board = $('board');
  board.addEventListener('click', (e) => activate(e.target, false));
  // The board is drawn to its size: drawn again when that changes.
  new ResizeObserver(() => renderBoard()).observe(board);
  board.addEventListener('keydown', (e) => {
    if (e.key in ARROWS && !state.replay && !e.altKey && !e.ctrlKey && !e.metaKey) {
      const from = e.target === board ? board : e.target.closest('.dest, .piece');
      const to = from && arrowTarget(board, from, ARROWS[e.key]);
      if (from) e.preventDefault();
      if (to) to.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (e.target.closest('.dest, .piece')) {
        e.preventDefault();
        activate(e.target, true);
      }
    } else if (e.key === 'Escape') {
      deselect(true);
    }
  });
  for (const color of ['white', 'black']) {
    const list = $('hand-' + color).querySelector('.pieces');
    list.addEventListener('click', (e) => {
      const b = e.target.closest('.hand-piece');
      if (b && !b.disabled) select(b.dataset.piece, e.detail === 0);
    });
    list.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') deselect(true);
    });
  }
  board.addEventListener('mouseover', (e) => showStack(e.target.closest('.piece')));
  board.addEventListener('mouseleave', () => showStack(null));
  board.addEventListener('focusin', (e) => showStack(e.target.closest('.piece')));
  board.addEventListener('focusout', () => showStack(null));
}

setupControls();
render();
start();
