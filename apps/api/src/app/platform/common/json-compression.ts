import type { NextFunction, Request, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Smallest JSON reply compressed (bytes), as the `compression` middleware's default threshold. */
export const JSON_COMPRESSION_MIN_BYTES = 1024;

/** Largest JSON reply compressed here in one call; a larger one streams through `compression`. */
export const JSON_COMPRESSION_MAX_BYTES = 1024 * 1024;

/** The encodings offered, the server's preference first (Brotli, then gzip). */
const ENCODINGS = ['br', 'gzip'] as const;

/**
 * Compresses a JSON body in one call: Brotli quality 2 with the body's size as the encoder's
 * hint (tables sized for it), or gzip level 1 (docs/decisions/json-replies-compressed-in-one-call.md).
 */
function compress(body: string, encoding: (typeof ENCODINGS)[number]): Buffer {
  const buffer = Buffer.from(body);
  return encoding === 'br'
    ? brotliCompressSync(buffer, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 2,
          [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
        },
      })
    : gzipSync(buffer, { level: 1 });
}

/**
 * Express middleware: a JSON reply of 1 KB to 1 MB (`JSON_COMPRESSION_MIN_BYTES`…`MAX_BYTES`)
 * sent with `res.json`/`res.send` goes out compressed in ONE synchronous call, Brotli or gzip as
 * the client accepts (Brotli preferred), with `Content-Encoding` and `Vary: Accept-Encoding`, so
 * the `compression` middleware after it passes the body through ('already encoded') instead of
 * streaming it through a zlib stream of its own. Everything else (HTML, CSV, files, a client that
 * accepts neither encoding, `Cache-Control: no-transform`, HEAD) is left as it was.
 */
export function jsonReplyCompression(): (
  request: Request,
  response: Response,
  next: NextFunction,
) => void {
  return (request, response, next) => {
    const send = response.send;
    response.send = function sendCompressed(this: Response, body?: unknown): Response {
      if (typeof body !== 'string' || request.method === 'HEAD') return send.call(this, body);
      const type = this.getHeader('Content-Type');
      if (typeof type !== 'string' || !type.startsWith('application/json'))
        return send.call(this, body);
      if (this.getHeader('Content-Encoding') !== undefined) return send.call(this, body);
      const cacheControl = this.getHeader('Cache-Control');
      if (
        typeof cacheControl === 'string' &&
        /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)
      )
        return send.call(this, body);
      const size = Buffer.byteLength(body);
      if (size < JSON_COMPRESSION_MIN_BYTES || size > JSON_COMPRESSION_MAX_BYTES)
        return send.call(this, body);
      this.vary('Accept-Encoding');
      const encoding = ENCODINGS.find((option) => request.acceptsEncodings(option) === option);
      if (!encoding) return send.call(this, body);
      this.setHeader('Content-Encoding', encoding);
      return send.call(this, compress(body, encoding));
    };
    next();
  };
}
