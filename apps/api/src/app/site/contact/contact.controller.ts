import { Body, Controller, Ip, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { ContactService } from './contact.service';
import { ContactDto } from './dto/contact.dto';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';

/** The public contact form (docs/product.md#contact-page Contact page; docs/product.md#calls the email-sending service's send call). */
@ApiTags('contact')
@Public()
@Controller('contact')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  /**
   * Body ContactRequest `{ firstName, lastName, email, phoneNumber, website, message, captcha }`.
   * → 201 `{ message: "Thank you for your message! We'll be in touch soon." }`;
   * 400 `{ message, fieldErrors }` with docs/product.md#validation messages ('Not a valid name', 'Not a valid email
   * address', 'Not a valid phone number', 'Not a valid URL', message required / ≤ 500);
   * 400 'Error: Please ensure you have completed the reCAPTCHA correctly.' for a missing,
   * invalid or reused captcha; 429 over THROTTLE_CONTACT_LIMIT per client per minute.
   */
  @Post()
  @ThrottledBy('contact')
  @ApiCreatedResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: 'Send a message from the contact page' })
  submit(@Body() body: ContactDto, @Ip() ip: string | undefined): Promise<MessageReplyDto> {
    return this.contact.submit(body.toInput(), body.captcha, ip ?? null);
  }
}
