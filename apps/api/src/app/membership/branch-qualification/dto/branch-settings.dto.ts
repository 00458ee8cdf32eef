import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, ValidateBy, ValidateIf } from 'class-validator';
import {
  BRANCH_QUALIFICATION_RULES,
  BRANCH_SETTINGS_DAYS_INVALID,
  BRANCH_SETTINGS_RULE_INVALID,
  isValidQualificationDays,
  type BranchQualificationRule,
  type BranchSettings,
} from '@grove/contracts';

/**
 * `PUT /api/settings/branches` body (docs/product.md#branch-qualification): `rule` one of
 * 'approval' | 'days' | 'first_payment'; `days` a whole number 1–365 (JSON number), required under
 * 'days' and ignored otherwise. The contracts' `validateBranchSettings` rules and messages.
 */
export class UpdateBranchSettingsDto implements BranchSettings {
  @ApiProperty({ enum: BRANCH_QUALIFICATION_RULES })
  @IsIn(BRANCH_QUALIFICATION_RULES, { message: BRANCH_SETTINGS_RULE_INVALID })
  rule!: BranchQualificationRule;

  @ApiProperty({ type: Number, required: false, nullable: true, minimum: 1, maximum: 365 })
  @ValidateIf((body: UpdateBranchSettingsDto) => body.rule === 'days')
  @ValidateBy({
    name: 'qualificationDays',
    validator: {
      validate: (value: unknown) => isValidQualificationDays(value),
      defaultMessage: () => BRANCH_SETTINGS_DAYS_INVALID,
    },
  })
  days!: number | null;
}

/**
 * `GET/PUT /api/settings/branches` reply (docs/product.md#branch-qualification): when a new
 * branch starts lowering its referrer's price; `days` is set under 'days' only, else null.
 */
@ApiSchema({ name: 'BranchSettings' })
export class BranchSettingsDto implements BranchSettings {
  @ApiProperty({ enum: BRANCH_QUALIFICATION_RULES, enumName: 'BranchQualificationRule' })
  rule!: BranchQualificationRule;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: 365,
    description: "Days as a member before the branch counts (rule 'days' only, else null)",
  })
  days!: number | null;
}
