import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What we remember next to the server's files. The password is made at initdb time: the server
 * listens on 127.0.0.1 only, but other local users could reach a trust-auth server.
 */
export interface ServerState {
  port?: number;
  password: string;
  /** The cluster's folder when it is not `<dataDir>/pg`: placed where the postgres OS user can reach it. */
  cluster?: string;
  /** The process that started or adopted the server; a dead owner means a crashed run. */
  ownerPid?: number;
}

export function readState(dataDir: string): ServerState | undefined {
  const file = join(dataDir, 'pg.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as ServerState;
}

/** Written aside then renamed: a crash mid-write must not lose the password. */
export function writeState(dataDir: string, state: ServerState): void {
  const file = join(dataDir, 'pg.json');
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
