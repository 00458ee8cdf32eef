// mailparser 3.9 ships no types; this declares the one function the tests use.
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
  }
  export function simpleParser(
    source: NodeJS.ReadableStream | Buffer | string,
  ): Promise<ParsedMail>;
}
