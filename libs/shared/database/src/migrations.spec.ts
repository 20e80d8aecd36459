import { createHash } from 'node:crypto';
import { checksumMatches, checksumOf } from './migrations';

describe('migration checksums', () => {
  const sql = 'CREATE TABLE a (id int);\nCREATE TABLE b (id int);\n';

  it('is the sha256 of the file in lowercase hex, as Prisma stores it', () => {
    expect(checksumOf(sql)).toBe(
      createHash('sha256').update(Buffer.from(sql, 'utf8')).digest('hex'),
    );
    expect(checksumOf('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('matches the same script with its line endings changed either way', () => {
    const crlf = sql.replace(/\n/g, '\r\n');
    expect(checksumMatches(crlf, checksumOf(sql))).toBe(true);
    expect(checksumMatches(sql, checksumOf(crlf))).toBe(true);
  });

  it('does not match an edited script', () => {
    expect(checksumMatches(`${sql}-- edit\n`, checksumOf(sql))).toBe(false);
    expect(checksumMatches(sql.replace('b', 'c'), checksumOf(sql))).toBe(false);
  });
});
