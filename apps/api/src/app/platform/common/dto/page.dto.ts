import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * What every page of a list reply carries besides its `items` (`Page<T>`, docs/rest-api.md): a
 * list reply's DTO extends it and declares `items`.
 */
export abstract class PageDto {
  @ApiProperty({ type: Number, description: 'Rows that match (all pages)' })
  total!: number;

  @ApiProperty({ type: Number, description: '1-based' })
  page!: number;

  @ApiProperty({ type: Number })
  pageSize!: number;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'True when `total` is a floor, not a count (a capped search); else exact',
  })
  totalCapped?: boolean;
}
