import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { QRCodeToBufferOptions } from 'qrcode';

/**
 * The worker's code: draws with the `qrcode` library the main thread resolved (its path in
 * `workerData`, so the worker finds it wherever the API runs from: the webpack bundle keeps
 * node_modules external) and sends each PNG back, its bytes moved, not copied.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const QRCode = require(workerData.qrcode);
parentPort.on('message', ({ id, text, options }) => {
  QRCode.toBuffer(text, options).then(
    (png) => {
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.length).slice();
      parentPort.postMessage({ id, png: bytes }, [bytes.buffer]);
    },
    (error) => parentPort.postMessage({ id, error: String(error && error.message || error) }),
  );
});
`;

type Reply = { id: number; png: Uint8Array } | { id: number; error: string };

/**
 * Draws QR codes as PNG on a worker thread (node:worker_threads), so the main thread answers other
 * requests meanwhile: a 1024 px PNG holds a thread about 0.4 s (docs/decisions/qr-png-off-the-event-loop.md).
 * One worker, started at the first image and kept (unref'd: it never holds the process up),
 * ended with the module; a worker that died is replaced at the next image, the images it was
 * drawing rejected.
 */
@Injectable()
export class QrPngDrawer implements OnModuleDestroy {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (png: Buffer) => void; reject: (error: Error) => void }
  >();

  /**
   * @param text what the code holds (a link's URL)
   * @param options the `qrcode` library's PNG options (`type: 'png'` is set here)
   * @returns the PNG's bytes
   * @throws Error when the library refuses the text or the worker dies
   */
  draw(text: string, options: Omit<QRCodeToBufferOptions, 'type'>): Promise<Buffer> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text, options: { ...options, type: 'png' } });
    });
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { qrcode: createRequire(__filename).resolve('qrcode') },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('png' in reply) waiting?.resolve(Buffer.from(reply.png.buffer, 0, reply.png.length));
      else waiting?.reject(new Error(reply.error));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`The QR code worker stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }
}
