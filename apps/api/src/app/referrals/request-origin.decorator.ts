import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The origin the request was sent to (`protocol://Host`), e.g. `http://localhost:3000`. */
export const RequestOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<Request>();
  return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
});
