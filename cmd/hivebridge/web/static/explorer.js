// The opening explorer's panel on the analysis board: for the position
// shown, the moves the archive's finished games played from it (GET
// /explorer, which matches the position in any orientation), how often and
// how those games ended, the board's engine's score beside each move it has
// among its lines, a click to play a move onto the board, and each move's
// games one click away in the replay. Shown only when the daemon keeps an
// archive.

import { formatScore } from './notation.js';

const $ = (id) => document.getElementById(id);

// app is what the page gives: { state, archiveGet, openReplay, playMoves,
// analysisLines, analysisPosition, gameString }.
let app = null;

// The last position asked about, and a count of the asks: only the newest
// answer is shown.
const asked = { position: '', n: 0, answer: null, error: '' };

// GAMES is how many of each move's games the panel lists, and DEPTH how
// deep the daemon searches to score each move (GET /explorer's depth).
const GAMES = 3;
const DEPTH = 2;

// refreshExplorer asks about the position shown, when it changed.
export async function refreshExplorer() {
  const a = app.state.analysis;
  const card = $('explorer');
  if (!a) {
    card.hidden = true;
    asked.position = '';
    return;
  }
  // A daemon without an archive says so once: asked no more.
  if (/keeps no archive/.test(asked.error)) return;
  const position = app.gameString();
  if (position === asked.position) {
    renderScores();
    return;
  }
  asked.position = position;
  const n = ++asked.n;
  $('explorer-table').setAttribute('aria-busy', 'true');
  let answer = null;
  let error = '';
  try {
    answer = await app.archiveGet(`explorer?position=${encodeURIComponent(position)}&games=${GAMES}&depth=${DEPTH}`);
  } catch (e) {
    error = e.message;
  }
  if (n !== asked.n) return;
  asked.answer = answer;
  asked.error = error;
  renderExplorer();
}

// renderExplorer draws the last answer, with the engine's scores as they
// stand now; the rows are drawn once an answer, and only their scores
// change with the engine's lines, so that a button is never replaced under
// the pointer that clicks it.
function renderExplorer() {
  const card = $('explorer');
  const table = $('explorer-table');
  const body = table.tBodies[0];
  // A daemon without an archive answers that it keeps none: no panel.
  if (!app.state.analysis || /keeps no archive/.test(asked.error)) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  table.setAttribute('aria-busy', 'false');
  table.dataset.position = asked.position; // the position the table is of
  // A move played from the table by keyboard leads here: its button goes,
  // and the focus goes to the new table's first move (or the panel), not
  // to the page.
  const hadFocus = card.contains(document.activeElement) && document.activeElement !== card;
  body.replaceChildren();
  const answer = asked.answer;
  if (!answer) {
    $('explorer-status').textContent = asked.error ? 'The explorer could not answer: ' + asked.error : 'Asking the archive…';
    if (hadFocus) card.focus({ preventScroll: true });
    return;
  }
  const games = answer.games;
  $('explorer-status').textContent = answer.moves.length
    ? `${games} archived game${games === 1 ? '' : 's'} went on from this position (in any orientation).`
    : 'No archived game went on from this position.';
  table.hidden = !answer.moves.length;
  for (const m of answer.moves) {
    const tr = document.createElement('tr');
    tr.dataset.move = m.move;
    const move = document.createElement('td');
    const play = document.createElement('button');
    play.type = 'button';
    play.className = 'explorer-move mono';
    play.textContent = m.move;
    play.disabled = !m.legal;
    play.setAttribute('aria-label', m.legal ? `Play ${m.move} on the board` : `${m.move}, not legal here: the piece moved last may not move`);
    play.addEventListener('click', () => app.playMoves([m.move]));
    move.append(play);
    const count = document.createElement('td');
    count.className = 'explorer-count';
    count.textContent = String(m.games);
    const result = document.createElement('td');
    result.append(wdlBar(m));
    const score = document.createElement('td');
    score.className = 'explorer-score mono';
    const ids = document.createElement('td');
    ids.className = 'explorer-games';
    for (const id of m.game_ids) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'explorer-game';
      b.textContent = '#' + id;
      b.dataset.id = String(id);
      b.setAttribute('aria-label', `Replay game ${id}, which played ${m.move}`);
      b.addEventListener('click', () => app.openReplay(id));
      ids.append(b, ' ');
    }
    tr.append(move, count, result, score, ids);
    body.append(tr);
  }
  if (hadFocus && !card.contains(document.activeElement)) (body.querySelector('.explorer-move:not(:disabled)') || card).focus({ preventScroll: true });
  renderScores();
}

// renderScores writes the engine's score beside each move of the table.
export function renderScores() {
  const answer = asked.answer;
  if (!app.state.analysis || !answer) return;
  const lines = app.analysisLines();
  const side = app.analysisPosition().toMove === 'white' ? 'White' : 'Black';
  for (const tr of $('explorer-table').tBodies[0].rows) {
    const m = answer.moves.find((x) => x.move === tr.dataset.move);
    const score = tr.querySelector('.explorer-score');
    if (!m || !score) continue;
    // The board's own lines are deeper, and live: their score where they
    // hold the move; else the daemon's short search of it.
    const line = lines.find((l) => (l.pv.length ? l.pv[0] : l.move) === m.move);
    if (line) {
      score.textContent = formatScore(line.score);
      score.dataset.from = 'line';
      score.title = `The engine's score for ${side}, the side to move: line ${line.multipv} at depth ${line.depth}`;
    } else if (m.score !== undefined) {
      score.textContent = formatScore(m.score);
      score.dataset.from = 'search';
      score.dataset.search = String(m.score); // the daemon's answer, as it came
      score.title = `The engine's score for ${side}, the side to move: a search ${DEPTH} plies deep of the position it leads to`;
    } else {
      score.textContent = '–';
      delete score.dataset.from;
      score.title = 'Not legal here: not scored';
    }
  }
}

// wdlBar shows how a move's games ended: White's wins, draws and Black's
// wins as parts of a bar, and in words.
function wdlBar(m) {
  const bar = document.createElement('span');
  bar.className = 'wdl';
  const words = `White won ${m.white}, drawn ${m.draws}, Black won ${m.black}`;
  bar.setAttribute('role', 'img');
  bar.setAttribute('aria-label', words);
  bar.title = words;
  for (const [cls, n] of [['w', m.white], ['d', m.draws], ['b', m.black]]) {
    const part = document.createElement('span');
    part.className = 'wdl-' + cls;
    part.style.flexGrow = String(n);
    part.textContent = n && m.games ? `${Math.round((100 * n) / m.games)}%` : '';
    bar.append(part);
  }
  return bar;
}

export function setupExplorer(hooks) {
  app = hooks;
}
