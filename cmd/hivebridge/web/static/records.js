// Game files in the viewer: a Hive PGN, BoardSpace SGF or GameString file,
// chosen with the file picker or dropped anywhere on the page, is read by
// the daemon (POST /records: the codecs and the rules `games convert`
// uses, so that the page needs no SGF grid arithmetic and checks no move
// itself) and replayed like an archived game; and the game shown, live or
// replayed, is downloaded as PGN.

import { ENDED, parseGameString } from './notation.js';
import { startReplay } from './archive.js';

const $ = (id) => document.getElementById(id);

// app is what the page gives: { state, authHeaders, playerName }.
let app = null;

function say(text) {
  $('file-status').textContent = text;
}

// postRecords posts a body to POST /records with a query, and resolves with
// the answer, or throws an Error in the daemon's words.
async function postRecords(query, body) {
  const u = new URL('records' + query, location.href);
  u.hash = '';
  const resp = await fetch(u, { method: 'POST', body, cache: 'no-store', headers: app.authHeaders() });
  if (resp.status === 401) throw new Error('The daemon refused the token.');
  if (resp.ok) return resp;
  let answer = null;
  try {
    answer = await resp.json();
  } catch {}
  throw new Error((answer && answer.error) || `The daemon answered ${resp.status}.`);
}

// fileGame is one game of an opened file as the replay shows it: the
// fields of an archived game that the replay reads, the file's name and
// the game's place in it instead of an id, and the record as read, which
// Download PGN sends back.
function fileGame(name, record, index, count) {
  return {
    file: name,
    index,
    count,
    white: record.white || '',
    black: record.black || '',
    result: record.result || '',
    how: record.how || '',
    status: record.result ? 'finished' : 'playing',
    game_string: record.game_string,
    queen_first: !!record.queen_first,
    comments: (record.moves || []).map((m) => m.comment || ''),
    record,
  };
}

function showFileGame(index) {
  const game = app.state.file.games[index];
  let parsed;
  try {
    parsed = parseGameString(game.game_string);
  } catch (e) {
    say(`Game ${index + 1} of ${game.file} cannot be shown: ${e.message}`);
    return;
  }
  startReplay(game, parsed);
}

// openFile reads a file through the daemon and replays its first game;
// the others are a choice away (Game in the file). The games that could
// not be read are counted, and the first of them told in full.
async function openFile(file) {
  say(`Reading ${file.name}…`);
  let answer;
  try {
    const resp = await postRecords(`?name=${encodeURIComponent(file.name)}`, file);
    answer = await resp.json();
  } catch (e) {
    say(`${file.name} could not be opened: ${e.message}`);
    return;
  }
  const count = answer.games.length;
  app.state.file = { name: file.name, games: answer.games.map((r, i) => fileGame(file.name, r, i, count)) };
  const select = $('replay-game');
  select.replaceChildren(...app.state.file.games.map((g, i) => new Option(`${i + 1}. ${g.white || '–'} v ${g.black || '–'}${g.result ? ', ' + g.result : ''}`, String(i))));
  const invalid = answer.invalid || [];
  const skipped = invalid.length ? ` ${invalid.length} could not be read: ${invalid[0]}${invalid.length > 1 ? ' (and more)' : ''}` : '';
  say(`Opened ${file.name}: ${count} game${count === 1 ? '' : 's'}.${skipped}`);
  showFileGame(0);
}

// liveRecord is the live game as a line of JSON that POST /records reads:
// its GameString, the players as the page names them, today's date.
function liveRecord() {
  const g = app.state.game;
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return {
    game_type: g.type.text,
    white: app.playerName('white'),
    black: app.playerName('black'),
    date: `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`,
    site: location.host,
    result: ENDED.includes(g.state) ? g.state : '',
    game_string: g.text,
    moves: [],
  };
}

// downloadPGN saves the game shown as PGN: an archived game as the daemon
// serves it (GET /games/{id}.pgn, with every tag the archive keeps), a
// game of a file or the live game converted by POST /records.
async function downloadPGN() {
  const r = app.state.replay;
  let name, resp;
  try {
    if (r && !r.game.file) {
      name = `hivebridge-${r.game.id}.pgn`;
      const u = new URL(`games/${r.game.id}.pgn`, location.href);
      u.hash = '';
      resp = await fetch(u, { cache: 'no-store', headers: app.authHeaders() });
      if (!resp.ok) throw new Error(`The daemon answered ${resp.status}.`);
    } else if (r) {
      const base = r.game.file.replace(/\.[^.]*$/, '') || 'game';
      name = `${base}${r.game.count > 1 ? '-' + (r.game.index + 1) : ''}.pgn`;
      resp = await postRecords('?to=pgn', JSON.stringify(r.game.record));
    } else if (app.state.game && app.state.game.moves.length) {
      name = `hivebridge-${new Date().toISOString().slice(0, 10)}.pgn`;
      resp = await postRecords('?to=pgn', JSON.stringify(liveRecord()));
    } else {
      say('No move has been played: there is no game to download yet.');
      return;
    }
    save(await resp.blob(), name);
    say(`Saved ${name}.`);
  } catch (e) {
    say(`The game could not be downloaded: ${e.message}`);
  }
}

function save(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

// carriesFiles tells a drag that carries files from one of text or links.
const carriesFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');

export function setupRecords(hooks) {
  app = hooks;
  $('open-file').addEventListener('click', () => $('open-file-input').click());
  $('open-file-input').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = ''; // the same file chosen again opens again
    if (file) openFile(file);
  });
  $('download-pgn').addEventListener('click', downloadPGN);
  $('replay-game').addEventListener('change', (e) => showFileGame(Number(e.target.value)));
  // A file dragged over the page outlines it; dropped, it opens.
  document.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    document.body.classList.remove('dropping');
    const file = e.dataTransfer.files[0];
    if (file) openFile(file);
  });
}
