/**
 * The web specs' Jest environment: jsdom plus the platform's fetch, Request, Response, Headers,
 * streams, text codecs and BroadcastChannel (what MSW needs to fake the API, as
 * jest-fixed-jsdom gives), keeping jsdom's own FormData, Blob and File, which jsdom's forms,
 * FileReader and file inputs require (React reads a submitted form with `new FormData(form)`;
 * Testing Library uploads jsdom Files).
 */
const JSDOMEnvironment = require('jest-environment-jsdom').default;

const FROM_NODE = {
  TextDecoder,
  TextEncoder,
  TextDecoderStream,
  TextEncoderStream,
  ReadableStream,
  WritableStream,
  TransformStream,
  Headers,
  Request,
  Response,
  fetch,
  AbortController,
  AbortSignal,
  structuredClone,
  URL,
  URLSearchParams,
  BroadcastChannel,
};

class WebEnvironment extends JSDOMEnvironment {
  constructor(config, context) {
    super(config, context);
    // Node's module resolution, not the browser bundles of packages (MSW's for one).
    this.customExportConditions = [''];
    Object.assign(this.global, FROM_NODE);
  }
}

module.exports = WebEnvironment;
