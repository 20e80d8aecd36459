import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The lines of `postmaster.pid` we use (Postgres writes them in this order since version 10). */
export interface PostmasterPid {
  pid: number;
  port: number;
  /** `starting`, `ready`, `stopping` or `standby`. */
  status: string;
}

export function readPostmasterPid(pgDir: string): PostmasterPid | undefined {
  const file = join(pgDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return undefined; // removed between the check and the read: the server just stopped
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** A server that exited stays a zombie until whoever adopted it (often pid 1) reaps it. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS), or just gone
  }
}

/**
 * Is `pid` the server of this data dir? After a crash the pid in postmaster.pid may belong to
 * another process by now (another Postgres, even), and Postgres refuses to start while that one
 * lives. On Linux the postmaster's working directory is its data dir, which settles it; elsewhere
 * we go by the process name, and when nothing can tell we assume it is ours (the safe side: we
 * never delete the lock file of a live server).
 */
export function isServerOf(pid: number, pgDir: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    if (existsSync('/proc/self/cwd'))
      return realpathSync(`/proc/${pid}/cwd`) === realpathSync(pgDir);
    return execFileSync('ps', ['-p', String(pid), '-o', 'comm='], { encoding: 'utf8' }).includes(
      'postgres',
    );
  } catch {
    return isAlive(pid);
  }
}
