import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array): string => isoBase64URL.fromBuffer(new Uint8Array(data));

/** What a test may bend in one ceremony, to see the server refuse it. */
export interface Bend {
  origin?: string;
  rpId?: string;
  /** The counter to report (default: one more than the last). */
  counter?: number;
  /** Report the user as not verified (no PIN or biometric). */
  unverified?: boolean;
}

/**
 * A software WebAuthn authenticator for integration tests: one ES256 (P-256) credential,
 * attestation 'none', answering `@simplewebauthn/server` options as `@simplewebauthn/browser`
 * would (RegistrationResponseJSON / AuthenticationResponseJSON). The browser journey uses
 * Chromium's virtual authenticator instead.
 */
export class SoftAuthenticator {
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject };
  readonly credentialId = randomBytes(32);
  private counter = 0;
  private userHandle = '';

  constructor(private readonly origin: string) {
    this.keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  /** The credential id as the API stores it (base64url). */
  get id(): string {
    return b64url(this.credentialId);
  }

  /** Creates the credential for registration options (`navigator.credentials.create`). */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    bend: Bend = {},
  ): Record<string, unknown> {
    this.userHandle = options.user.id;
    const clientData = this.clientData('webauthn.create', options.challenge, bend);
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x as string)],
        [-3, isoBase64URL.toBuffer(jwk.y as string)],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authData(bend.rpId ?? options.rp.id ?? '', AT, bend),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Signs sign-in options (`navigator.credentials.get`). */
  assert(options: { challenge: string; rpId?: string }, bend: Bend = {}): Record<string, unknown> {
    const clientData = this.clientData('webauthn.get', options.challenge, bend);
    const authData = this.authData(bend.rpId ?? options.rpId ?? '', 0, bend);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }

  private clientData(type: string, challenge: string, bend: Bend): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: bend.origin ?? this.origin, crossOrigin: false }),
    );
  }

  private authData(rpId: string, extraFlags: number, bend: Bend): Buffer {
    this.counter = bend.counter ?? this.counter + 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const flags = UP | (bend.unverified ? 0 : UV) | extraFlags;
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }
}
