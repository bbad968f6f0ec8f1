// The match tests in the viewer: the distributed engine tests a
// PostgreSQL archive keeps (GET /tests, GET /tests/{id}), shown as
// OpenBench shows a test: engine A's results over the game pairs counted,
// the pentanomial counts, the Elo with its interval and the LLR against
// its bounds; a test's row opens the games each worker played.

import { archiveGet as get } from './archive.js';

const $ = (id) => document.getElementById(id);

const signed = (x) => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(1);

function eloWords(t) {
  if (t.elo === null || t.elo === undefined) return '–';
  return t.elo_margin === null || t.elo_margin === undefined ? signed(t.elo) : `${signed(t.elo)} ± ${t.elo_margin.toFixed(1)}`;
}

function llrWords(t) {
  const s = t.sprt;
  if (!s) return 'no SPRT';
  const verdict = s.verdict === 'no verdict yet' ? '' : `, ${s.verdict}`;
  return `${s.llr.toFixed(2)} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}) [${s.elo0}, ${s.elo1}] ${s.model}${verdict}`;
}

function stateWords(t) {
  const state = t.state + (t.stopped ? ` (${t.stopped})` : '');
  return t.in_play ? `${state}, ${t.in_play} pair${t.in_play === 1 ? '' : 's'} in play` : state;
}

async function loadTests() {
  const table = $('tests-table');
  table.setAttribute('aria-busy', 'true');
  $('tests-status').textContent = 'Loading the tests…';
  let answer;
  try {
    answer = await get('tests');
  } catch (e) {
    $('tests-status').textContent = e.message;
    table.tBodies[0].replaceChildren();
    table.setAttribute('aria-busy', 'false');
    return;
  }
  const tests = answer.tests || [];
  $('tests-status').textContent = tests.length ? `${tests.length} test${tests.length === 1 ? '' : 's'}, newest first. Choose one to see its workers.` : 'No test yet.';
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const t of tests) {
    const tr = document.createElement('tr');
    tr.dataset.id = String(t.id);
    const cells = [String(t.id), `${t.white} vs ${t.black}`, t.white_tc === t.black_tc ? t.white_tc : `${t.white_tc} / ${t.black_tc}`,
      stateWords(t), `${t.played} of ${t.games}`, `${t.wins} / ${t.draws} / ${t.losses}`, `[${t.pentanomial.join(', ')}]`, eloWords(t), llrWords(t)];
    cells.forEach((text, i) => {
      const td = document.createElement(i === 0 ? 'th' : 'td');
      if (i === 0) {
        td.scope = 'row';
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'test-open';
        b.textContent = text;
        b.setAttribute('aria-label', `Show test ${t.id}'s workers`);
        b.addEventListener('click', () => showTest(t.id));
        td.append(b);
      } else {
        td.textContent = text;
      }
      td.className = ['id', 'engines', 'tc', 'state', 'games', 'wdl', 'ptnml', 'elo', 'llr'][i];
      tr.append(td);
    });
    body.append(tr);
  }
  table.setAttribute('aria-busy', 'false');
}

async function showTest(id) {
  let t;
  try {
    t = await get(`tests/${id}`);
  } catch (e) {
    $('tests-status').textContent = e.message;
    return;
  }
  $('test-detail').hidden = false;
  $('test-detail-title').textContent = `Test ${t.id}: ${t.white} vs ${t.black}, ${t.played} of ${t.games} games, ${stateWords(t)}`;
  const body = $('test-workers').tBodies[0];
  body.replaceChildren();
  for (const w of t.workers || []) {
    const tr = document.createElement('tr');
    for (const text of [w.worker, String(w.games), `${w.wins} / ${w.draws} / ${w.losses}`]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    body.append(tr);
  }
}

export function setupTests() {
  $('tests-open').addEventListener('click', () => {
    if (!$('tests-dialog').open) $('tests-dialog').showModal();
    loadTests();
  });
  $('tests-refresh').addEventListener('click', loadTests);
  $('tests-close').addEventListener('click', () => $('tests-dialog').close());
}
