import { SetMetadata } from '@nestjs/common';

/** Metadata key read by the global JWT guard. */
export const IS_PUBLIC_KEY = 'grove:isPublic';

/** Marks a route (or controller) as reachable without a session; every other route needs one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
