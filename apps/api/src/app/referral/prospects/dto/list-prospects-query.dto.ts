import { PageQueryDto } from '../../../platform/common/page-query.dto';

/** Query of `GET /api/prospects` (1-based page; page size 1–100, default 50). */
export class ListProspectsQueryDto extends PageQueryDto {}
