#!/usr/bin/env node
// The floor as FLOOR_WORKERS processes sharing its port (node:cluster), started by the bench when the
// service runs under its supervisor with that many workers: both sides then use the same cores.
const cluster = require('node:cluster');
const path = require('node:path');

const workers = Number(process.env.FLOOR_WORKERS);
let stopping = false;
cluster.setupPrimary({ exec: path.join(__dirname, 'floor-server.js') });
for (let i = 0; i < workers; i += 1) cluster.fork();
cluster.on('exit', (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
    return;
  }
  process.stderr.write(`floor worker ${worker.process.pid} exited (${signal || code}); stopping the floor\n`);
  process.exit(1);
});
process.on('SIGTERM', () => {
  stopping = true;
  for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
});
