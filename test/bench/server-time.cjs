// Preloaded into the benchmarked server (node --require): the server's own time for each answer,
// from the moment Node hands it the parsed request to the moment the last byte of the answer is
// written to the socket. A load generator's figure adds what the server never sees: the time a
// request waits in the socket before the event loop reads it, and the generator's own delays (on
// a 2-core machine it shares the cores with the server and PostgreSQL).
//
// SIGUSR2 writes the percentiles since the last signal to BENCH_SERVER_TIME_FILE (JSON) and starts
// over, so a bench signals once before a run (to start clean) and once after it.
const fs = require('node:fs');
const http = require('node:http');
const { createHistogram, monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.BENCH_SERVER_TIME_FILE;
if (file) {
  let answers = createHistogram();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const res = args[1];
      const start = process.hrtime.bigint();
      res.once('finish', () => answers.record(Math.max(1, Number(process.hrtime.bigint() - start))));
    }
    return emit.call(this, event, ...args);
  };
  const ms = (ns) => ns / 1e6;
  process.on('SIGUSR2', () => {
    const h = answers;
    const report = {
      count: h.count,
      p50: ms(h.percentile(50)),
      p90: ms(h.percentile(90)),
      p99: ms(h.percentile(99)),
      max: ms(h.max),
      loopDelayP99: ms(loop.percentile(99)),
    };
    // whole or not at all: the bench reads the file as soon as it exists
    fs.writeFileSync(`${file}.part`, JSON.stringify(report));
    fs.renameSync(`${file}.part`, file);
    answers = createHistogram();
    loop.reset();
  });
}
