// UHP notation for the viewer: GameStrings, MoveStrings and piece names, and
// the board they describe. This is notation, not rules: the page turns the
// moves an engine reports into positions to draw them, and asks the engine
// for everything else (which moves are legal, whose turn it is, who won).

// The bugs, in the order the page lists them, with how many each player has
// and the expansion letter that brings them into a game.
export const BUGS = {
  Q: { name: 'Queen Bee', count: 1 },
  S: { name: 'Spider', count: 2 },
  B: { name: 'Beetle', count: 2 },
  G: { name: 'Grasshopper', count: 3 },
  A: { name: 'Soldier Ant', count: 3 },
  M: { name: 'Mosquito', count: 1, expansion: 'M' },
  L: { name: 'Ladybug', count: 1, expansion: 'L' },
  P: { name: 'Pillbug', count: 1, expansion: 'P' },
};
const BUG_LETTERS = Object.keys(BUGS);

// The eight GameTypeStrings, in the spec's order.
export const GAME_TYPES = ['Base', 'Base+M', 'Base+L', 'Base+P', 'Base+ML', 'Base+MP', 'Base+LP', 'Base+MLP'];

const STATES = ['NotStarted', 'InProgress', 'Draw', 'WhiteWins', 'BlackWins'];

// ENDED are the GameStates of a game that is over.
export const ENDED = ['Draw', 'WhiteWins', 'BlackWins'];

// The six neighbours of a pointy-top hexagon as axial steps (q to the east,
// r to the south-east), and how a MoveString names each: "bS1 wS1/" is to
// the top right of wS1, "bS1 /wS1" to its bottom left, and so on.
export const DIRECTIONS = {
  E: { step: [1, 0], after: '-', words: 'right of' },
  SE: { step: [0, 1], after: '\\', words: 'below right of' },
  SW: { step: [-1, 1], before: '/', words: 'below left of' },
  W: { step: [-1, 0], before: '-', words: 'left of' },
  NW: { step: [0, -1], before: '\\', words: 'above left of' },
  NE: { step: [1, -1], after: '/', words: 'above right of' },
};
const MARK_AFTER = { '-': 'E', '/': 'NE', '\\': 'SE' };
const MARK_BEFORE = { '-': 'W', '/': 'SW', '\\': 'NW' };

class NotationError extends Error {}

// parseGameType reads a GameTypeString ("Base", "Base+MLP"; letters in any
// order and case) and returns it spelled as the spec lists it, with its
// expansion letters.
export function parseGameType(text) {
  const m = /^base(?:\+([mlp]+))?$/i.exec(text.trim());
  if (!m) throw new NotationError(`"${text}" is not a game type: want Base or Base+ with M, L or P`);
  const letters = (m[1] || '').toUpperCase();
  const expansions = new Set(letters);
  if (expansions.size !== letters.length) throw new NotationError(`"${text}" names an expansion twice`);
  const canonical = ['M', 'L', 'P'].filter((l) => expansions.has(l)).join('');
  return { text: canonical ? 'Base+' + canonical : 'Base', expansions };
}

// bugsOf lists the bug letters of a game type.
function bugsOf(type) {
  return BUG_LETTERS.filter((b) => !BUGS[b].expansion || type.expansions.has(BUGS[b].expansion));
}

// normalizePiece reads a piece's short name in any case ("wq", "WQ1", "bS2")
// and returns it as the spec writes it ("wQ", "bS2").
export function normalizePiece(text) {
  const m = /^([wb])([qsbgamlp])([1-9])?$/i.exec(text);
  if (!m) throw new NotationError(`"${text}" is not a piece name`);
  const color = m[1].toLowerCase();
  const bug = m[2].toUpperCase();
  const count = BUGS[bug].count;
  const n = m[3] ? Number(m[3]) : 0;
  if (count === 1) {
    if (n > 1) throw new NotationError(`there is no ${text}: a player has one ${BUGS[bug].name}`);
    return color + bug;
  }
  if (n < 1 || n > count) throw new NotationError(`there is no ${text}: a player has ${count} ${BUGS[bug].name}s`);
  return color + bug + n;
}

// pieceInfo splits a normalized piece name into its parts.
export function pieceInfo(name) {
  const color = name[0] === 'w' ? 'white' : 'black';
  const bug = name[1];
  const number = name.length > 2 ? Number(name[2]) : 0;
  const words = `${color} ${BUGS[bug].name}${number ? ' ' + number : ''}`;
  return { color, bug, number, words };
}

// parseMove reads a MoveString: "pass", a bare piece (the first move of a
// game), a piece on top of another ("wB1 wS1"), or a piece beside another
// ("bS1 wS1-", "bS1 /wS1").
export function parseMove(text) {
  const parts = text.trim().split(/\s+/);
  if (parts.length === 1 && parts[0].toLowerCase() === 'pass') return { pass: true, text };
  if (parts.length < 1 || parts.length > 2 || parts[0] === '') throw new NotationError(`"${text}" is not a MoveString`);
  const piece = normalizePiece(parts[0]);
  if (parts.length === 1) return { piece, ref: null, dir: null, text };
  let where = parts[1];
  let dir = null;
  if (MARK_BEFORE[where[0]]) {
    dir = MARK_BEFORE[where[0]];
    where = where.slice(1);
  } else if (MARK_AFTER[where[where.length - 1]]) {
    dir = MARK_AFTER[where[where.length - 1]];
    where = where.slice(0, -1);
  }
  return { piece, ref: normalizePiece(where), dir, text };
}

// parseGameString reads "GameType;GameState;Turn;Move1;Move2;...".
export function parseGameString(text) {
  const parts = text.trim().split(';');
  if (parts.length < 3) throw new NotationError(`"${text}" is not a GameString`);
  const type = parseGameType(parts[0]);
  const state = STATES.find((s) => s.toLowerCase() === parts[1].trim().toLowerCase());
  if (!state) throw new NotationError(`"${parts[1]}" is not a game state`);
  const turn = /^(white|black)\[(\d+)\]$/i.exec(parts[2].trim());
  if (!turn) throw new NotationError(`"${parts[2]}" is not a turn`);
  const moves = parts.slice(3).map((m) => m.trim());
  const color = turn[1].toLowerCase() === 'white' ? 'white' : 'black';
  return { text: text.trim(), type, state, toMove: color, turn: Number(turn[2]), moves };
}

// isGameString tells a GameString line from the other lines of an answer.
export function isGameString(line) {
  try {
    parseGameString(line);
    return true;
  } catch {
    return false;
  }
}

export const cellKey = (q, r) => q + ',' + r;
export const keyCell = (key) => key.split(',').map(Number);
const neighbour = ([q, r], dir) => [q + DIRECTIONS[dir].step[0], r + DIRECTIONS[dir].step[1]];

// Board is the hive drawn from a list of moves: the first piece at (0,0),
// every other placed relative to the piece its MoveString names.
export class Board {
  constructor(type) {
    this.type = type;
    this.cellOf = new Map(); // piece -> cell key
    this.stacks = new Map(); // cell key -> pieces, bottom first
  }

  // destination returns the cell a parsed move goes to; the reference is
  // read before the moving piece is lifted, so a piece may name itself.
  destination(move) {
    if (move.ref === null) {
      if (this.cellOf.size > 0) throw new NotationError(`"${move.text}" needs a position: only the first piece is played without one`);
      return [0, 0];
    }
    const at = this.cellOf.get(move.ref);
    if (at === undefined) throw new NotationError(`"${move.text}": ${move.ref} is not on the board`);
    return move.dir ? neighbour(keyCell(at), move.dir) : keyCell(at);
  }

  // play applies one MoveString.
  play(text) {
    const move = parseMove(text);
    if (move.pass) return;
    const to = cellKey(...this.destination(move));
    const from = this.cellOf.get(move.piece);
    if (from !== undefined) {
      const stack = this.stacks.get(from);
      if (stack[stack.length - 1] !== move.piece) throw new NotationError(`"${text}": ${move.piece} is covered and cannot move`);
      stack.pop();
      if (stack.length === 0) this.stacks.delete(from);
    }
    if (!this.stacks.has(to)) this.stacks.set(to, []);
    this.stacks.get(to).push(move.piece);
    this.cellOf.set(move.piece, to);
  }

  top(key) {
    const s = this.stacks.get(key);
    return s ? s[s.length - 1] : null;
  }

  // hand lists, for a colour ('w' or 'b'), each bug of the game with the
  // pieces of it not yet on the board.
  hand(color) {
    return bugsOf(this.type).map((bug) => {
      const count = BUGS[bug].count;
      const names = [];
      for (let n = 1; n <= count; n++) {
        const name = color + bug + (count > 1 ? n : '');
        if (!this.cellOf.has(name)) names.push(name);
      }
      return { bug, names };
    });
  }

  // neighbours returns the top pieces around a cell, with the direction of
  // each from the cell.
  neighbours(key) {
    const cell = keyCell(key);
    const out = [];
    for (const dir of Object.keys(DIRECTIONS)) {
      const top = this.top(cellKey(...neighbour(cell, dir)));
      if (top) out.push({ dir, piece: top });
    }
    return out;
  }
}

// boardOf draws a parsed GameString's moves.
export function boardOf(game) {
  const board = new Board(game.type);
  game.moves.forEach((m, i) => {
    try {
      board.play(m);
    } catch (e) {
      throw new NotationError(`move ${i + 1}, ${e.message}`);
    }
  });
  return board;
}

// describeDestination says in words where a MoveString puts its piece.
export function describeDestination(move) {
  if (move.ref === null) return 'at the centre';
  const ref = pieceInfo(move.ref).words;
  if (!move.dir) return 'on top of ' + ref;
  return DIRECTIONS[move.dir].words + ' ' + ref;
}

// parseReport reads one line a search prints before its answer: a bare
// MoveString, or "MoveString;Depth;Score;PV1;PV2;..." with the score from
// the side to move's view.
export function parseReport(line) {
  const [move, depth, score, ...pv] = line.split(';');
  const report = { move: move.trim() };
  if (depth !== undefined && depth.trim() !== '') report.depth = Number(depth);
  if (score !== undefined && score.trim() !== '') report.score = Number(score);
  report.pv = pv.map((m) => m.trim()).filter((m) => m !== '');
  return report;
}

// formatScore writes a score for people: a forced result, which the engine
// reports as 1000-N for a win in N plies and -(1000-N) for a loss (1000
// itself when it knows no length), as "win in N" or "loss in N", an
// evaluation as a signed number of pieces. Engines whose scores are on
// another scale (the reference engine's run to tens of thousands) are shown
// as they come.
export function formatScore(score) {
  if (score === undefined || Number.isNaN(score)) return '';
  const size = Math.abs(score);
  const result = score > 0 ? 'win' : 'loss';
  if (!Number.isFinite(score)) return result;
  const plies = Math.round(1000 - size);
  if (size >= 900 && size <= 1000 && Math.abs(1000 - size - plies) < 0.005) {
    return plies === 0 ? result : `${result} in ${plies}`;
  }
  return (score > 0 ? '+' : '') + score.toFixed(2);
}
