import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../platform/config/app-config';
import { openSecret, sealSecret, SealedSecretError } from '@grove/sealed-secret';

export { openSecret, sealSecret, SealedSecretError };

/** `sealSecret` / `openSecret` with the configured MINDBODY_CREDENTIALS_KEY. */
@Injectable()
export class MindbodyCrypto {
  constructor(private readonly config: AppConfig) {}

  /** → `v1.<iv>.<tag>.<ciphertext>`, different every call for the same text. */
  seal(plaintext: string): string {
    return sealSecret(this.config.mindbody.credentialsKey, plaintext);
  }

  /** @throws SealedSecretError when the value cannot be opened with the configured key */
  open(sealed: string): string {
    return openSecret(this.config.mindbody.credentialsKey, sealed);
  }
}
