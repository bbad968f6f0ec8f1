// A UHP connection over the daemon's WebSocket: one command per text
// message, answered by lines up to "ok". A long command may send lines
// before its last message (the engine's thinking); they reach onLine as they
// come. Commands wait their turn, so each answer belongs to one command.
//
// A message may also hold more than one answer, or the start of the next:
// the lines received wait in a queue of their own, and each answer takes
// them up to its "ok", leaving the rest to the next.

export class ConnectionClosed extends Error {}

export class UHPConnection {
  // url is the WebSocket's; onLog(direction, text) sees every message sent
  // ('>') and received ('<'); onClose(event) is told when the socket ends.
  // socket(url) makes the WebSocket (a test gives a fake one).
  constructor(url, { onLog = () => {}, onClose = () => {}, socket = (u) => new WebSocket(u) } = {}) {
    this.url = url;
    this.onLog = onLog;
    this.onClose = onClose;
    this.makeSocket = socket;
    this.queue = []; // commands waiting, the first one being answered
    this.lines = []; // lines received that no answer has taken yet
    this.socket = null;
    this.closed = false;
  }

  // open connects and resolves with the info answer the engine sends on
  // connect; it rejects when the socket closes before that. With a token,
  // the first message is "auth <token>", and the daemon answers it with the
  // info answer, or with an err line (a bad token) before it closes.
  open(token = '') {
    return new Promise((resolve, reject) => {
      const socket = this.makeSocket(this.url);
      this.socket = socket;
      // The info answer comes unasked, or in answer to auth, which is no
      // command of the engine's: it answers a command nobody queued.
      this.queue.push({ command: null, lines: [], onLine: null, resolve, reject });
      if (token) {
        socket.addEventListener('open', () => {
          this.onLog('>', 'auth ********'); // the log is on the page: not the token
          socket.send('auth ' + token);
        }, { once: true });
      }
      socket.addEventListener('message', (event) => this.receive(String(event.data)));
      socket.addEventListener('close', (event) => {
        this.closed = true;
        const waiting = this.queue.splice(0);
        for (const c of waiting) c.reject(new ConnectionClosed(closeReason(event)));
        this.onClose(event);
      });
    });
  }

  // send queues a command and resolves with its answer: { lines, error },
  // error being the text of an err or invalidmove line. onLine, if given,
  // receives each line as it arrives.
  send(command, onLine = null) {
    if (this.closed) return Promise.reject(new ConnectionClosed('the connection is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ command, lines: [], onLine, resolve, reject });
      if (this.queue.length === 1) {
        this.transmit();
        this.deliver(); // lines that came ahead of it, if any
      }
    });
  }

  transmit() {
    const head = this.queue[0];
    if (!head || head.command === null || head.sent) return;
    head.sent = true;
    this.onLog('>', head.command);
    this.socket.send(head.command);
  }

  // stop sends "stop" at once, ahead of the commands that wait their turn,
  // and resolves with its answer. hivebridge's daemon reads it while a
  // command runs and stops that command (a bestmove infinite, which then
  // answers its best move), then answers the stop itself with ok, in its
  // turn: right after the command it stopped, so its place in the queue is
  // there, where no waiting command takes that ok for its own. With no
  // command running there is nothing to stop, and nothing is sent.
  stop() {
    const head = this.queue[0];
    if (this.closed || !head || !head.sent) return Promise.resolve({ lines: [], error: null });
    return new Promise((resolve, reject) => {
      this.queue.splice(1, 0, { command: 'stop', sent: true, lines: [], onLine: null, resolve, reject });
      this.onLog('>', 'stop');
      this.socket.send('stop');
    });
  }

  // receive takes a message's lines into the queue of lines and hands them
  // to the answers waiting.
  receive(text) {
    this.onLog('<', text);
    for (const line of text.split('\n')) {
      const l = line.replace(/\r$/, '');
      if (l !== '') this.lines.push(l);
    }
    this.deliver();
  }

  // deliver gives the lines received to the command being answered, up to
  // its "ok", then to the next, for as long as a command waits and lines
  // are left; lines that no command waits for are kept for the next.
  deliver() {
    while (this.queue.length && this.lines.length) {
      const head = this.queue[0];
      const line = this.lines.shift();
      if (line === 'ok') {
        this.queue.shift();
        const error = head.lines.find((l) => l.startsWith('err ') || l.startsWith('invalidmove '));
        head.resolve({ lines: head.lines, error: error ? error.replace(/^(err|invalidmove) /, '') : null });
        this.transmit();
        continue;
      }
      head.lines.push(line);
      if (head.onLine) head.onLine(line);
    }
  }

  close() {
    if (this.socket) this.socket.close();
  }
}

function closeReason(event) {
  return event.reason ? `the connection closed: ${event.reason}` : `the connection closed (code ${event.code})`;
}
