import { ForbiddenException, type ExecutionContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { OriginGuard } from './origin.guard';

/** A request as the guard reads it: method, Origin, and the origin Express derives from Host. */
function context(method: string, origin: string | undefined, host = 'grove.example.com') {
  const request = { method, headers: origin ? { origin } : {}, protocol: 'https', host };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

const guard = (nodeEnv: AppConfig['nodeEnv']) =>
  new OriginGuard({
    nodeEnv,
    publicOrigin: 'https://grove.example.com',
    allowedOrigins: ['https://partner.example.org'],
  } as Partial<AppConfig> as AppConfig);

describe('OriginGuard', () => {
  it('lets PUBLIC_ORIGIN, ALLOWED_ORIGINS, safe methods and requests without Origin through', () => {
    const production = guard('production');
    expect(production.canActivate(context('POST', 'https://grove.example.com'))).toBe(true);
    expect(production.canActivate(context('DELETE', 'https://partner.example.org'))).toBe(true);
    expect(production.canActivate(context('GET', 'https://evil.example'))).toBe(true);
    expect(production.canActivate(context('POST', undefined))).toBe(true);
  });

  it('in production, refuses an Origin that only matches the Host the client sent', () => {
    // A rebinding name or a proxy passing the client's Host: the request "is" its own origin.
    expect(() =>
      guard('production').canActivate(context('POST', 'https://evil.example', 'evil.example')),
    ).toThrow(ForbiddenException);
  });

  it('outside production, also accepts the origin the request was addressed to (127.0.0.1, a preview proxy)', () => {
    expect(
      guard('development').canActivate(context('POST', 'https://127.0.0.1:3000', '127.0.0.1:3000')),
    ).toBe(true);
    expect(() => guard('development').canActivate(context('POST', 'https://evil.example'))).toThrow(
      ForbiddenException,
    );
  });
});
