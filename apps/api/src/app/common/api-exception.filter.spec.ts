import { HttpStatus } from '@nestjs/common';
import { EmailTakenException, InvalidCredentialsException, RefreshRefusedException } from '../auth/auth.exceptions';
import {
  DuplicateMemberException,
  ManagedMemberLockedException,
  MemberNotFoundException,
  NotABranchException,
} from '../members/members.exceptions';
import { ProspectManagedException, ProspectNotFoundException } from '../prospects/prospects.exceptions';
import { AlreadyMemberException, ReferralLinkNotFoundException, SelfReferralException } from '../referrals/referrals.exceptions';
import { statusOf } from './api-exception.filter';
import { GroveException } from './grove.exception';

describe('statusOf', () => {
  it.each([
    [new MemberNotFoundException(), HttpStatus.NOT_FOUND],
    [new NotABranchException(), HttpStatus.NOT_FOUND],
    [new DuplicateMemberException(), HttpStatus.CONFLICT],
    [new ManagedMemberLockedException(), HttpStatus.CONFLICT],
    [new EmailTakenException(), HttpStatus.CONFLICT],
    [new InvalidCredentialsException(), HttpStatus.UNAUTHORIZED],
    [new RefreshRefusedException(), HttpStatus.UNAUTHORIZED],
    [new ReferralLinkNotFoundException(), HttpStatus.NOT_FOUND],
    [new AlreadyMemberException(), HttpStatus.CONFLICT],
    [new SelfReferralException(), HttpStatus.UNPROCESSABLE_ENTITY],
    [new ProspectNotFoundException(), HttpStatus.NOT_FOUND],
    [new ProspectManagedException(), HttpStatus.CONFLICT],
  ])('maps %p to %p', (exception, status) => {
    expect(statusOf(exception)).toBe(status);
  });

  it('treats an unmapped module exception as a server error', () => {
    class Unmapped extends GroveException {}
    expect(statusOf(new Unmapped('x'))).toBe(HttpStatus.INTERNAL_SERVER_ERROR);
  });
});
