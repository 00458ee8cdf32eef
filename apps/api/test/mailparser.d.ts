// mailparser 3.9 ships no types; this declares the one function the tests use and what they read.
declare module 'mailparser' {
  interface AddressObject {
    text: string;
    value: { address?: string; name: string }[];
  }
  interface ParsedMail {
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    replyTo?: AddressObject;
    subject?: string;
    text?: string;
    /** The HTML part, or false when the email has none. */
    html?: string | false;
    /** Every header as received (`key` lower case, `line` the raw, possibly folded, line). */
    headerLines: { key: string; line: string }[];
  }
  export function simpleParser(
    source: NodeJS.ReadableStream | Buffer | string,
  ): Promise<ParsedMail>;
}
