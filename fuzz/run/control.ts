/**
 * The canary's control: a bare node:http server in a child process the runner starts, read in the
 * same rounds as the canary (canary.ts), send for send in turn. Both are processes on the same
 * machine answering a request of the same size, so whatever slows the machine (other processes,
 * a busy loop, the kit's own garbage collection) slows both; `degradation` takes the part of the
 * canary's rise the control shares for the machine's (oracle/checks/degradation.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { ControlSender } from './canary.js';

/** The child: answers GET /<n> with n bytes, on a port of its own; prints the port; leaves with its parent's pipe. */
const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const n = Math.min(1e6, Number(req.url.slice(1)) || 0);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': n });
  res.end(Buffer.alloc(n, 32));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
`;

/** Requests sent to the control when it starts, so that its own warm-up (JIT) is over before it is read. */
export const CONTROL_WARM_UP = 100;

export class Control {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 1 });

  private constructor(
    private readonly child: ChildProcess,
    private readonly port: number,
  ) {}

  /** A control started and warmed up (unless `stopped` says the run is over); undefined if it could not start (the canary is then judged alone). */
  static async start(stopped: () => boolean = () => false): Promise<Control | undefined> {
    const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'ignore'] });
    const port = await new Promise<number | undefined>((resolve) => {
      const none = (): void => {
        resolve(undefined);
      };
      child.once('error', none);
      child.once('exit', none);
      createInterface({ input: child.stdout }).once('line', (line) => {
        resolve(Number(line));
      });
    });
    if (port === undefined || !(port > 0)) {
      child.kill();
      return undefined;
    }
    const control = new Control(child, port);
    for (let i = 0; i < CONTROL_WARM_UP && !stopped(); i++) await control.send(0);
    return control;
  }

  /**
   * One request for `bytes` bytes: its time from the first byte sent to the last received, in
   * milliseconds; `fresh` on a connection of its own (its connect timed too), as the canary's
   * connections probe is sent (canary.ts).
   */
  send(bytes: number, fresh = false): Promise<number> {
    return new Promise((resolve, reject) => {
      const began = performance.now();
      const how = fresh ? { agent: false as const, headers: { connection: 'close' } } : { agent: this.#agent };
      const sent = request({ host: '127.0.0.1', port: this.port, path: `/${bytes}`, ...how }, (res) => {
        res.resume();
        res.on('end', () => { resolve(performance.now() - began); });
        res.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  close(): void {
    this.#agent.destroy();
    this.child.stdin?.end();
    this.child.kill();
  }
}

/** A control starting in the background: until it is up (or if it cannot start), a send reads nothing (Infinity). */
export interface StartingControl {
  readonly sender: ControlSender;
  close(): Promise<void>;
}

export function startControl(): StartingControl {
  let ready: Control | undefined;
  let closed = false;
  const starting = Control.start(() => closed).then((control) => (ready = control));
  return {
    sender: { send: (bytes, fresh) => (ready === undefined ? Promise.resolve(Number.POSITIVE_INFINITY) : ready.send(bytes, fresh)) },
    close: async () => {
      closed = true;
      (await starting)?.close();
    },
  };
}
