import {
  type ArgumentsHost,
  Body,
  Catch,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Ip,
  NotFoundException,
  Post,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MESSAGES, validateContactInput, type ContactInput } from '@grove/contracts';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { CaptchaService } from '../../platform/captcha/captcha.service';
import { CaptchaFailedException } from '../../platform/captcha/captcha.exceptions';
import { ApiExceptionFilter } from '../../platform/common/api-exception.filter';
import { formText, NotCrossSiteGuard } from '../../platform/web/inline-page-http';
import { WebAppsService } from '../../platform/web/web-apps.service';
import { ContactService } from './contact.service';
import { sanitizePlainText } from './sanitize-text';
import {
  emptyContactInput,
  renderContactForm,
  withContactForm,
  type ContactFormState,
} from './contact-page.view';

/**
 * The contact page with `state`'s form in it, sent with `Cache-Control: no-store` (a new code each
 * time) and `Referrer-Policy: same-origin`: under helmet's `no-referrer` a browser sends the form's
 * POST with `Origin: null`, which the OriginGuard refuses (the join page does the same).
 */
async function sendContactPage(
  web: WebAppsService,
  response: Response,
  state: ContactFormState,
): Promise<string> {
  const page = await web.publicPageHtml('/contact');
  if (page === null) throw new NotFoundException();
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'same-origin');
  response.type('html');
  return withContactForm(page, renderContactForm(state));
}

/**
 * The contact page's errors as the page, not JSON (a browser without JavaScript shows whatever
 * its POST answers): the status the API would answer (`ApiExceptionFilter`: 403 from another site,
 * 429 over THROTTLE_CONTACT_LIMIT, 503 when the database is down) with the form again, empty, and
 * the reply's message above Submit.
 */
@Catch()
export class ContactPageExceptionFilter extends ApiExceptionFilter {
  constructor(
    private readonly web: WebAppsService,
    private readonly captcha: CaptchaService,
  ) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const { statusCode, message } = this.reply(exception, http.getRequest<Request>(), response);
    if (response.headersSent) return;
    const state: ContactFormState = {
      kind: 'form',
      values: emptyContactInput(),
      errors: {},
      failure: message,
      captcha: this.captcha.createImageChallenge(),
    };
    sendContactPage(this.web, response, state).then(
      (html) => response.status(statusCode).send(html),
      () => response.status(statusCode).type('text').send(message),
    );
  }
}

/**
 * The contact page for browsers without JavaScript (docs/product.md#contact-page,
 * docs/decisions/contact-form-without-javascript.md): `GET /contact` answers the shell's page
 * with the marketing remote's prerendered contact page and, in its form slot, a plain HTML form
 * with an image captcha (a fresh code per reply); the form's `POST /contact/send` answers the same page
 * with the success text or the field messages. With JavaScript the remote's own form (captcha:
 * altcha's proof of work, `POST /api/contact`) replaces it. Public; outside `/api`
 * (setup-app.ts).
 */
@ApiTags('contact')
@ApiProduces('text/html')
@Public()
@Controller('contact')
@UseFilters(ContactPageExceptionFilter)
@UseGuards(NotCrossSiteGuard)
export class ContactPageController {
  constructor(
    private readonly contact: ContactService,
    private readonly captcha: CaptchaService,
    private readonly web: WebAppsService,
  ) {}

  /** → 200 the contact page with its form and a new image captcha; 404 without a shell build. */
  @Get()
  @ApiOperation({ summary: 'The contact page as HTML, its form working without JavaScript' })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  page(@Res({ passthrough: true }) response: Response): Promise<string> {
    return sendContactPage(this.web, response, this.form(emptyContactInput(), {}));
  }

  /**
   * The form's POST, body `firstName=…&lastName=…&email=…&country=…&phoneNumber=…&website=…&
   * message=…&captchaToken=…&captchaAnswer=…` (urlencoded). The JSON form's rules and messages
   * (contracts' `validateContactInput` with the sanitizer, docs/product.md#validation-contact),
   * throttle ('contact') and write (`ContactService.submit`). → 200 the page with 'Thank you for
   * your message! We'll be in touch soon.'; 400 the form again with the typed values, each
   * field's message under it ('Please complete the captcha' under an empty code), or 'Error:
   * Please ensure you have completed the reCAPTCHA correctly.' for a wrong, expired or reused
   * code (nothing stored); 403 from another site; 429 over THROTTLE_CONTACT_LIMIT.
   */
  @Post('send')
  @HttpCode(HttpStatus.OK)
  @ThrottledBy('contact')
  @ApiOperation({ summary: 'The contact form without JavaScript: answered by a page' })
  @ApiOkResponse({ content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: { type: 'object', additionalProperties: { type: 'string' } } })
  async send(
    @Body() body: Record<string, unknown> | undefined,
    @Ip() ip: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const form = body ?? {};
    const values: ContactInput = {
      firstName: formText(form['firstName']),
      lastName: formText(form['lastName']),
      email: formText(form['email']),
      country: formText(form['country']) || emptyContactInput().country,
      phoneNumber: formText(form['phoneNumber']),
      website: formText(form['website']),
      message: formText(form['message']),
    };
    const answer = formText(form['captchaAnswer']);
    const errors: Partial<Record<keyof ContactInput | 'captcha', string>> = {
      ...validateContactInput(values, sanitizePlainText),
      ...(answer.trim() ? {} : { captcha: MESSAGES.captchaRequired }),
    };
    if (Object.keys(errors).length > 0) {
      response.status(HttpStatus.BAD_REQUEST);
      return sendContactPage(this.web, response, this.form(values, errors));
    }
    try {
      await this.contact.submit(
        values,
        { token: formText(form['captchaToken']), answer },
        ip ?? null,
      );
    } catch (error) {
      if (!(error instanceof CaptchaFailedException)) throw error;
      response.status(HttpStatus.BAD_REQUEST);
      return sendContactPage(this.web, response, {
        ...this.form(values, {}),
        failure: MESSAGES.contactFailed,
      });
    }
    return sendContactPage(this.web, response, { kind: 'sent' });
  }

  private form(
    values: ContactInput,
    errors: Partial<Record<keyof ContactInput | 'captcha', string>>,
  ): Extract<ContactFormState, { kind: 'form' }> {
    return { kind: 'form', values, errors, captcha: this.captcha.createImageChallenge() };
  }
}
