/**
 * A correct Plant Store that takes its time: the reference implementation, every answer held back
 * by a fixed delay (50 ms unless argv[2] says otherwise) - a remote database, a slow disk. The
 * contract says nothing of time, so `plant-store conform` must pass it; bench/thresholds.ts loads
 * it beside the reference. Run as its own process by bench/targets.ts; prints its URL once it listens.
 */
import { createApp, listen } from '../src/reference/index.js';
import { BENCH_TOKEN } from './workload.js';

const delayMs = Number(process.argv[2] ?? 50);
const app = createApp({ tokens: [BENCH_TOKEN] });
const server = await listen(
  {
    maxBodyBytes: app.maxBodyBytes,
    admit: (method, url, headers) => app.admit(method, url, headers),
    complete: (admitted, body) => app.complete(admitted, body),
    bodyTooLarge: () => app.bodyTooLarge(),
    // Every answer, refusals included, after the delay.
    finish: async (response) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return response;
    },
  },
  { host: '127.0.0.1', port: 0 },
);
console.log(`listening on ${server.url}`);
