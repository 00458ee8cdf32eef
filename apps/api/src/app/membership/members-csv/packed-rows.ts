import { once } from 'node:events';
import { constants, createGzip, type Gzip } from 'node:zlib';

/**
 * An upload's data rows packed as `member_imports.upload` holds them: gzip (level 6) of the JSON
 * `{"rows":[[cell, …], …],"lines":[n, …]}` (what `unpackRows` in the repository reads back),
 * written row by row as the parser gives them. zlib compresses on libuv's thread pool, so the
 * upload never holds its rows as arrays nor the whole JSON as one string: only the compressed
 * bytes so far and the lines (10,000 numbers at most).
 */
export class RowPacker {
  private readonly gzip: Gzip = createGzip({ level: constants.Z_DEFAULT_COMPRESSION });
  private readonly packed: Buffer[] = [];
  private readonly lines: number[] = [];
  private readonly failed: Promise<never>;

  constructor() {
    this.gzip.on('data', (chunk: Buffer) => this.packed.push(chunk));
    this.failed = new Promise<never>((_, reject) => this.gzip.once('error', reject));
    // Only `finish` awaits the failure; until then it must not count as unhandled.
    this.failed.catch(() => undefined);
    this.gzip.write('{"rows":[');
  }

  /** Adds one data row and its file line; waits while zlib catches up. */
  async add(cells: string[], line: number): Promise<void> {
    const text = (this.lines.length === 0 ? '' : ',') + JSON.stringify(cells);
    this.lines.push(line);
    if (!this.gzip.write(text)) await Promise.race([once(this.gzip, 'drain'), this.failed]);
  }

  /** The rows added so far. */
  get count(): number {
    return this.lines.length;
  }

  /** Ends the JSON and answers the whole gzip. */
  async finish(): Promise<Buffer> {
    this.gzip.end(`],"lines":${JSON.stringify(this.lines)}}`);
    await Promise.race([once(this.gzip, 'end'), this.failed]);
    return Buffer.concat(this.packed);
  }

  /** Lets go of what was packed (a refused upload). */
  discard(): void {
    this.gzip.destroy();
    this.packed.length = 0;
  }
}
