import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `GET /api/health/live`: the process is up and not draining (503 while it drains). */
@ApiSchema({ name: 'Liveness' })
export class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}
