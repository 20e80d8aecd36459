/**
 * Kills the process groups the e2e tests started when the test runner goes away without tearing
 * them down (Ctrl-C, a crash, kill -9). Jest hands test code a copy of `process`, so exit and
 * signal handlers registered there never fire; a separate process is the one reliable way.
 * The runner writes each group id on our stdin, one a line; the pipe closing means the runner is
 * gone (or done), and every group that still has a live member is SIGKILLed.
 * Usage: spawned by processes.ts, detached (a Ctrl-C to the runner's group does not reach it).
 */
const { readdirSync, readFileSync } = require('node:fs');

const groups = new Set();
let partial = '';

for (const signal of ['SIGINT', 'SIGHUP']) process.on(signal, () => undefined);

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop();
  for (const line of lines) if (/^\d+$/.test(line)) groups.add(Number(line));
});
process.stdin.on('error', () => undefined);
process.stdin.on('close', () => {
  const deadline = Date.now() + 5_000;
  let alive = [...groups].filter(hasMembers);
  while (alive.length > 0 && Date.now() < deadline) {
    for (const pgid of alive) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    alive = alive.filter(hasMembers);
  }
  process.exit(0);
});

/** A group id is not reused while a member lives, so only groups with members are signalled. */
function hasMembers(pgid) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') return true;
    } catch {
      // Exited between readdir and read.
    }
  }
  return false;
}
