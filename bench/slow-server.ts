/**
 * A correct Plant Store that takes its time: the reference implementation, every answer held back
 * by a fixed delay (50 ms unless argv[2] says otherwise) - a remote database, a slow disk. The
 * contract says nothing of time, so `plant-store conform` must pass it; bench/thresholds.ts loads
 * it beside the reference. Run as its own process by bench/targets.ts; prints its URL once it listens.
 */
import { isAnswered, type Pipeline } from '../src/http/index.js';
import { createApp, listen, type AppResponse } from '../src/reference/index.js';
import { BENCH_TOKEN } from './workload.js';

const delayMs = Number(process.argv[2] ?? 50);
const app = createApp({ tokens: [BENCH_TOKEN] });
// Every answer, refusals included, after the delay.
const later = (answer: AppResponse): Promise<AppResponse> => new Promise((resolve) => setTimeout(() => { resolve(answer); }, delayMs));
const slow: Pipeline<Parameters<typeof app.body>[1]> = {
  contract: app.contract,
  maxBodyBytes: app.maxBodyBytes,
  refusalNotes: app.refusalNotes,
  head: (request) => {
    const admitted = app.head(request);
    return isAnswered(admitted) ? later(admitted) : admitted;
  },
  body: (request, admitted, bytes) => later(app.body(request, admitted, bytes)),
  refuse: (request, refusal, rule) => later(app.refuse(request, refusal, rule)),
  request: (request) => later(app.request(request)),
};
const server = await listen(slow, { host: '127.0.0.1', port: 0 });
console.log(`listening on ${server.url}`);
