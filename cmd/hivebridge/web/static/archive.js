// The archive in the viewer: the Games dialog (the daemon's archived games,
// a page at a time, filtered), and the replay of a game move by move on the
// page's board. The page (app.js) hands it its state and the few things it
// does for it (setupArchive); the replay lives in state.replay, which the
// page's drawing reads.

import { GAME_TYPES, ENDED, parseGameString, boardOf } from './notation.js';

const $ = (id) => document.getElementById(id);
const cap = (s) => s[0].toUpperCase() + s.slice(1);

// app is what the page gives: { state, render, announce, replaceGame,
// authHeaders }.
let app = null;

// The Games dialog's page of the archive and the filter it shows, and a
// count of its loads: only the newest is shown.
const games = { page: 1, total: 0, filter: '' };
let gamesLoads = 0;

const GAMES_PER_PAGE = 20;

// archiveGet fetches one of the daemon's JSON answers (the archive's, the
// match tests'), with the tab's token. It resolves with the JSON, or throws
// an Error saying what the daemon said.
export async function archiveGet(path) {
  const u = new URL(path, location.href);
  u.hash = '';
  const resp = await fetch(u, { cache: 'no-store', headers: app.authHeaders() });
  if (resp.status === 401) throw new Error('The daemon refused the token.');
  let body = null;
  try {
    body = await resp.json();
  } catch {}
  if (!resp.ok) throw new Error((body && body.error) || `The daemon answered ${resp.status}.`);
  return body;
}

// unfinished tells a game that can be played on: its GameString says it
// has not ended, and it was played by UHP's rules (a game of a file may
// have had a Queen placed on a first turn, which no UHP engine takes).
function unfinished(game) {
  if (game.queen_first) return false;
  try {
    return !ENDED.includes(parseGameString(game.game_string).state);
  } catch {
    return false;
  }
}

// outcomeWords puts an archived game's end in words.
function outcomeWords(game) {
  const result = { WhiteWins: 'White wins', BlackWins: 'Black wins', Draw: 'Draw' }[game.result] || '';
  if (game.status === 'playing') return 'In progress';
  if (game.status === 'interrupted') return 'Interrupted' + (game.reason ? ` (${game.reason})` : '');
  const how = game.how && game.how !== 'state' ? game.how + (game.reason ? ': ' + game.reason : '') : '';
  if (result) return how ? `${result} (${how})` : result;
  return how ? cap(how) : 'Ended';
}

function when(text) {
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? text : d.toLocaleString();
}

async function openGames() {
  const dialog = $('games-dialog');
  if (!dialog.open) dialog.showModal();
  await loadGames(games.page);
}

// localMidnight is the start of a date (2006-01-02) in the browser's time
// zone, as an RFC 3339 time: the dates a person types are those the
// Started column shows, which are local.
function localMidnight(date) {
  return new Date(`${date}T00:00`).toISOString();
}

// readGamesFilter reads the Games dialog's filter as GET /games takes it:
// the fields that are set, each under its parameter's name, the dates as
// the local midnights they begin with. It throws an Error in words when the
// dates make an empty span.
function readGamesFilter() {
  const q = new URLSearchParams();
  for (const [name, value] of new FormData($('games-filter'))) {
    const v = String(value).trim();
    if (!v) continue;
    q.set(name, name === 'since' || name === 'until' ? localMidnight(v) : v);
  }
  const since = $('games-since').value, until = $('games-until').value;
  if (since && until && until <= since) throw new Error(`"Started before" (${until}) must be a later date than "Started from" (${since}).`);
  return q.toString();
}

// applyGamesFilter lists the first page of the games that pass the filter
// as the dialog's fields now say it.
function applyGamesFilter() {
  let filter;
  try {
    filter = readGamesFilter();
  } catch (e) {
    $('games-status').textContent = e.message;
    return;
  }
  games.filter = filter;
  loadGames(1);
}

// loadGames fills the Games table with one page of the archive. While the
// page loads the table says it is busy (aria-busy), so neither a screen
// reader nor a test reads rows about to be replaced; a load overtaken by a
// newer one (a quick Next, Next) drops its answer.
async function loadGames(page) {
  const table = $('games-table');
  const body = table.tBodies[0];
  const load = ++gamesLoads;
  const filter = games.filter;
  table.setAttribute('aria-busy', 'true');
  $('games-status').textContent = 'Loading the games…';
  let answer;
  try {
    const q = new URLSearchParams(filter);
    q.set('page', String(page));
    q.set('per_page', String(GAMES_PER_PAGE));
    answer = await archiveGet(`games?${q}`);
  } catch (e) {
    if (load !== gamesLoads) return;
    if (page > 1 && /past the end/.test(e.message)) return loadGames(1);
    $('games-status').textContent = e.message;
    $('games-page').textContent = '';
    $('games-prev').disabled = $('games-next').disabled = true;
    body.replaceChildren();
    finishGamesLoad(table, load);
    return;
  }
  if (load !== gamesLoads) return;
  Object.assign(games, { page, total: answer.total, filter });
  const pages = Math.max(1, Math.ceil(answer.total / GAMES_PER_PAGE));
  const count = `${answer.total} game${answer.total === 1 ? '' : 's'}`;
  $('games-status').textContent = filter
    ? (answer.total ? `${count} pass the filter.` : 'No game passes the filter.')
    : (answer.total ? `${count} in the archive.` : 'The archive holds no game yet.');
  $('games-page').textContent = `Page ${page} of ${pages}`;
  $('games-prev').disabled = page <= 1;
  $('games-next').disabled = page >= pages;
  body.replaceChildren();
  for (const g of answer.games || []) {
    const tr = document.createElement('tr');
    tr.dataset.id = String(g.id);
    tr.dataset.status = g.status;
    const cells = [String(g.id), g.white || '–', g.black || '–', g.game_type, outcomeWords(g), when(g.started), String(g.plies)];
    cells.forEach((text, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) td.scope = 'row';
      td.textContent = text;
      td.className = ['id', 'white', 'black', 'type', 'result', 'started', 'plies'][i];
      tr.append(td);
    });
    const actions = document.createElement('td');
    actions.className = 'row-actions';
    const replay = document.createElement('button');
    replay.type = 'button';
    replay.className = 'replay-game';
    replay.textContent = 'Replay';
    replay.setAttribute('aria-label', `Replay game ${g.id}`);
    replay.addEventListener('click', () => openReplay(g.id));
    actions.append(replay);
    if (unfinished(g)) {
      const on = document.createElement('button');
      on.type = 'button';
      on.className = 'play-on';
      on.textContent = 'Play on';
      on.setAttribute('aria-label', `Play on game ${g.id}`);
      on.addEventListener('click', () => playOn(g));
      actions.append(' ', on);
    }
    tr.append(actions);
    body.append(tr);
  }
  finishGamesLoad(table, load);
}

// finishGamesLoad marks the Games table no longer busy, and numbers the
// load it shows (data-load), so that whoever waits for a load to be shown
// can tell it from the one before, even when both show the same rows.
function finishGamesLoad(table, load) {
  table.dataset.load = String(load);
  table.setAttribute('aria-busy', 'false');
}

// openReplay shows an archived game in replay, at its last move. The
// positions are the GameString's moves drawn one by one: notation, no rules.
export async function openReplay(id) {
  $('games-status').textContent = `Loading game ${id}…`;
  let game;
  try {
    game = await archiveGet(`games/${id}`);
  } catch (e) {
    $('games-status').textContent = e.message;
    return;
  }
  let parsed;
  try {
    parsed = parseGameString(game.game_string);
  } catch (e) {
    $('games-status').textContent = `Game ${id} cannot be shown: ${e.message}`;
    return;
  }
  $('games-dialog').close();
  startReplay(game, parsed);
}

// startReplay shows a game in replay, at its last move: an archived game
// (GET /games/{id}), or one of the games of a file opened on the page
// (records.js), which carries the file's name and its place in it (file,
// index, count) instead of an id.
export function startReplay(game, parsed) {
  app.state.selected = null;
  app.state.replay = { game, parsed, moves: parsed.moves, ply: 0, board: null, error: '' };
  replayTo(parsed.moves.length);
  $('replay-forward').focus();
}

function replayTo(ply) {
  const r = app.state.replay;
  if (!r) return;
  r.ply = Math.max(0, Math.min(r.moves.length, ply));
  try {
    r.board = boardOf({ type: r.parsed.type, moves: r.moves.slice(0, r.ply) });
    r.error = '';
  } catch (e) {
    r.error = 'Cannot draw this position: ' + e.message;
  }
  app.announce(replayWords());
  app.render();
}

// replayPosition is the position shown in a replay, as far as notation
// says: the side to move alternates with every move (a pass is a move), and
// only the last position can be one the game ended in.
export function replayPosition() {
  const r = app.state.replay;
  const last = r.ply === r.moves.length;
  return {
    state: last ? r.parsed.state : r.ply === 0 ? 'NotStarted' : 'InProgress',
    toMove: r.ply % 2 === 0 ? 'white' : 'black',
    turn: Math.floor(r.ply / 2) + 1,
  };
}

// replayGameString is the GameString of the position shown in a replay,
// so that Copy copies the position on screen, not the live game behind it.
function replayGameString() {
  const r = app.state.replay;
  const pos = replayPosition();
  return [r.parsed.type.text, pos.state, `${cap(pos.toMove)}[${pos.turn}]`, ...r.moves.slice(0, r.ply)].join(';');
}

export function replayWords() {
  const r = app.state.replay;
  const at = r.ply === 0 ? 'the start' : `${r.ply % 2 ? 'White' : 'Black'} played ${r.moves[r.ply - 1]}`;
  return `Move ${r.ply} of ${r.moves.length}: ${at}. ${replayStatusWords()}`;
}

// replayStatusWords says whose turn it is in the position replayed, or how
// the game ended at its last.
function replayStatusWords() {
  const pos = replayPosition();
  return { WhiteWins: 'White wins.', BlackWins: 'Black wins.', Draw: 'Draw.' }[pos.state] || `${cap(pos.toMove)} to move, turn ${pos.turn}.`;
}

function leaveReplay() {
  if (!app.state.replay) return;
  app.state.replay = null;
  app.render();
  $('games-open').focus();
}

// playOn loads an unfinished game into the live session.
async function playOn(game) {
  if ($('games-dialog').open) $('games-dialog').close();
  if (!app.state.conn) {
    app.state.message = 'Not connected: cannot play the game on.';
    app.state.replay = null;
    app.render();
    return;
  }
  await app.replaceGame('newgame ' + game.game_string, null);
}

export function renderReplay() {
  const r = app.state.replay;
  $('replay').hidden = !r;
  document.body.dataset.mode = r ? 'replay' : 'live';
  if (!r) return;
  const g = r.game;
  const pos = replayPosition();
  const which = g.file ? `${g.file}${g.count > 1 ? `, game ${g.index + 1} of ${g.count}` : ''}` : `game ${g.id}`;
  $('replay-title').textContent = `Replay of ${which}: ${g.white || '–'} (White) v ${g.black || '–'} (Black), ${outcomeWords(g)}`;
  $('replay-position').textContent = replayWords();
  $('replay-start').disabled = $('replay-back').disabled = r.ply === 0;
  $('replay-forward').disabled = $('replay-end').disabled = r.ply === r.moves.length;
  // A step button that the step disabled hands the focus to its opposite.
  const focused = document.activeElement;
  if (focused && focused.disabled && focused.closest('#replay')) {
    $(['replay-start', 'replay-back'].includes(focused.id) ? 'replay-forward' : 'replay-back').focus();
  }
  const range = $('replay-ply');
  range.max = String(r.moves.length);
  range.value = String(r.ply);
  range.setAttribute('aria-valuetext', replayWords());
  $('replay-play-on').hidden = !unfinished(g);
  $('replay-file').hidden = !(g.file && g.count > 1);
  if (g.file) $('replay-game').value = String(g.index);
  const status = $('status');
  status.dataset.state = pos.state;
  status.dataset.toMove = pos.toMove;
  $('turn').textContent = `Replay: ${replayStatusWords()}`;
  $('game-type').textContent = r.parsed.type.text;
  $('remote-info').hidden = true;
  $('waiting').textContent = '';
}

// renderReplayHistory lists the replayed game's moves, each a button that
// shows the position after it.
export function renderReplayHistory(list) {
  const r = app.state.replay;
  const hadFocus = document.activeElement && document.activeElement.matches('#history button.jump');
  // An archived game's moves carry when each was played; a file's, the
  // record's comment on each (an engine's score, a player's note).
  const notes = new Map(r.game.file ? (r.game.comments || []).map((c, i) => [i, c]) : (r.game.moves || []).map((m) => [m.ply, 'Played ' + when(m.at)]));
  r.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = String(i + 1);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'jump';
    b.dataset.ply = String(i + 1);
    if (i + 1 === r.ply) b.setAttribute('aria-current', 'step');
    const turn = document.createElement('span');
    turn.className = 'turn';
    turn.textContent = `${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}`;
    const mv = document.createElement('span');
    mv.className = 'mv ' + (i % 2 ? 'black' : 'white');
    mv.textContent = m;
    b.append(turn, ' ', mv);
    b.setAttribute('aria-label', `Show the position after move ${i + 1}, ${i % 2 ? 'Black' : 'White'}'s ${m}`);
    if (notes.get(i)) b.title = notes.get(i);
    li.append(b);
    list.append(li);
  });
  const current = list.querySelector('[aria-current]');
  if (current) current.scrollIntoView({ block: 'nearest' });
  $('current-gamestring').value = replayGameString();
  if (hadFocus) (current || list.querySelector('button.jump') || $('replay-forward')).focus({ preventScroll: true });
}

export function setupArchive(hooks) {
  app = hooks;
  $('games-open').addEventListener('click', openGames);
  $('games-close').addEventListener('click', () => $('games-dialog').close());
  $('games-refresh').addEventListener('click', () => loadGames(games.page));
  $('games-prev').addEventListener('click', () => loadGames(games.page - 1));
  $('games-next').addEventListener('click', () => loadGames(games.page + 1));
  for (const t of GAME_TYPES) $('games-type').append(new Option(t, t));
  // A new filter shows its first page; so does clearing it. Newer, Older
  // and Refresh keep the filter last applied, whatever the fields say now.
  $('games-filter').addEventListener('submit', (e) => {
    e.preventDefault();
    applyGamesFilter();
  });
  $('games-clear').addEventListener('click', () => {
    $('games-filter').reset();
    applyGamesFilter();
  });
  $('replay-start').addEventListener('click', () => replayTo(0));
  $('replay-back').addEventListener('click', () => replayTo(app.state.replay.ply - 1));
  $('replay-forward').addEventListener('click', () => replayTo(app.state.replay.ply + 1));
  $('replay-end').addEventListener('click', () => replayTo(app.state.replay.moves.length));
  $('replay-ply').addEventListener('input', (e) => replayTo(Number(e.target.value)));
  $('replay-leave').addEventListener('click', leaveReplay);
  $('replay-play-on').addEventListener('click', () => playOn(app.state.replay.game));
  $('history').addEventListener('click', (e) => {
    const b = e.target.closest('button.jump');
    if (b && app.state.replay) replayTo(Number(b.dataset.ply));
  });
  // The arrow keys, Home and End step through a replay, wherever the
  // focus is but in a field (the range input moves by itself) or a dialog.
  document.addEventListener('keydown', (e) => {
    if (!app.state.replay || e.altKey || e.ctrlKey || e.metaKey || document.querySelector('dialog[open]')) return;
    if (e.target.closest('input, select, textarea')) return;
    const r = app.state.replay;
    const to = { ArrowLeft: r.ply - 1, ArrowRight: r.ply + 1, Home: 0, End: r.moves.length }[e.key];
    if (to === undefined) {
      if (e.key === 'Escape') leaveReplay();
      return;
    }
    e.preventDefault();
    replayTo(to);
  });
}
