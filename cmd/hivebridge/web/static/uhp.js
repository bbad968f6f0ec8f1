// A UHP connection over the daemon's WebSocket: one command per text
// message, answered by lines up to "ok". A long command may send lines
// before its last message (the engine's thinking); they reach onLine as they
// come. Commands wait their turn, so each answer belongs to one command.

export class ConnectionClosed extends Error {}

export class UHPConnection {
  // url is the WebSocket's; onLog(direction, text) sees every message sent
  // ('>') and received ('<'); onClose(event) is told when the socket ends.
  constructor(url, { onLog = () => {}, onClose = () => {} } = {}) {
    this.url = url;
    this.onLog = onLog;
    this.onClose = onClose;
    this.queue = []; // commands waiting, the first one being answered
    this.socket = null;
    this.closed = false;
  }

  // open connects and resolves with the info answer the engine sends on
  // connect; it rejects when the socket closes before that.
  open() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      // The info answer comes unasked: it answers a command nobody sent.
      this.queue.push({ command: null, lines: [], onLine: null, resolve, reject });
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
      if (this.queue.length === 1) this.transmit();
    });
  }

  transmit() {
    const head = this.queue[0];
    if (!head || head.command === null) return;
    this.onLog('>', head.command);
    this.socket.send(head.command);
  }

  receive(text) {
    this.onLog('<', text);
    const head = this.queue[0];
    if (!head) return; // nothing asked: not UHP, ignore
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (line === 'ok') {
        this.queue.shift();
        const error = head.lines.find((l) => l.startsWith('err ') || l.startsWith('invalidmove '));
        head.resolve({ lines: head.lines, error: error ? error.replace(/^(err|invalidmove) /, '') : null });
        this.transmit();
        return;
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
