import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The origin the request was sent to (`protocol://host[:port]`), e.g. `http://localhost:3000`:
 * Express's `req.protocol` and `req.host`, which behind a trusted proxy (TRUST_PROXY) come from
 * X-Forwarded-Proto and X-Forwarded-Host (else the socket and the Host header).
 */
export const RequestOrigin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<Request>();
    return `${request.protocol}://${request.host || 'localhost'}`;
  },
);
