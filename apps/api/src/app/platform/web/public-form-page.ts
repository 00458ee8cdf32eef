import { HttpStatus } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import type { Response } from 'express';
import { formText } from './inline-page-http';

/** What a public form page's POST answers with, for its renderer to draw. */
export type PublicFormReply<Dto, Found, Errors> =
  /** A field broke its rule: the form again with the typed values (the DTO) and the messages (400). */
  | { kind: 'refused'; found: Found; dto: Dto; errors: Errors }
  /** The send went through (200). */
  | { kind: 'sent'; found: Found };

/** One public form page's POST: its DTO, the validator and the renderer, and what it reads and writes. */
export interface PublicFormPage<Dto extends object, Found, Errors> {
  /** The form's DTO class; class-transformer applies its trims and transforms. */
  dto: ClassConstructor<Dto>;
  /** The posted fields copied into the DTO, each as text (`formText`: '' when absent or not text). */
  fields: readonly (keyof Dto & string)[];
  /** The contracts validator the DTO names (`@ValidatedBy`): one message per invalid field. */
  validate: (dto: Dto) => Errors;
  /** Reads what the page is of (e.g. the business of a code) before anything typed is looked at. */
  find: () => Promise<Found>;
  /** Writes the valid send (the join). */
  submit: (dto: Dto) => Promise<unknown>;
  /** The page's HTML for the reply (its headers set on the response). */
  render: (reply: PublicFormReply<Dto, Found, Errors>) => string;
}

/**
 * Answers the plain POST (no JavaScript, urlencoded) of a public form page the API renders itself:
 * the referral join page `/referral/:code` and the business's join page `/join/:code`
 * (docs/architecture.md#join-page). In order: the fields into the DTO (no body at all, as for a
 * type no parser reads, gives empty fields); `find` first, so an unknown code answers its failure
 * page whatever was typed; then the validator: a message → 400 and the form again, nothing
 * written; else `submit` and the success page, 200. The same reply whoever sent it (a stranger,
 * a member, a filled honeypot: `submit` decides in silence).
 * @param body the parsed form, or undefined when no parser read it
 * @returns the page's HTML; the status is set on `response`
 * @throws whatever `find` or `submit` throws (the page's exception filter draws it)
 */
export async function answerPublicFormPost<
  Dto extends object,
  Found,
  Errors extends Readonly<Record<string, string | undefined>>,
>(
  response: Response,
  body: Record<string, unknown> | undefined,
  page: PublicFormPage<Dto, Found, Errors>,
): Promise<string> {
  const form = body ?? {};
  const dto = plainToInstance(
    page.dto,
    Object.fromEntries(page.fields.map((field) => [field, formText(form[field])])),
  );
  const found = await page.find();
  const errors = page.validate(dto);
  if (Object.values(errors).some(Boolean)) {
    response.status(HttpStatus.BAD_REQUEST);
    return page.render({ kind: 'refused', found, dto, errors });
  }
  await page.submit(dto);
  return page.render({ kind: 'sent', found });
}
