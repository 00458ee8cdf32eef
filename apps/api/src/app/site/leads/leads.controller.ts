import { Body, Controller, Ip, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../platform/common/public.decorator';
import { ThrottledBy } from '../../platform/common/throttled-by.decorator';
import { LeadDto } from './dto/lead.dto';
import { LeadsService } from './leads.service';
import { MessageReplyDto } from '../../platform/common/dto/message-reply.dto';

/** The landing page's 'Learn More' pop-up (docs/product.md#landing-page Landing page). Public. */
@ApiTags('leads')
@Public()
@Controller('leads')
export class LeadsController {
  constructor(private readonly leads: LeadsService) {}

  /**
   * Body LeadRequest `{ fullName, email, phone, company, captcha }`.
   * → 201 `{ message: "Thanks! We'll be in touch soon." }`; 400 `{ message, fieldErrors }`
   * ('Not a valid name', 'Not a valid email address', 'Not a valid phone number', company
   * required / ≤ 200); 400 'Error: Please ensure you have completed the reCAPTCHA correctly.' for
   * a missing, invalid or reused captcha (the contact form's: altcha, reCAPTCHA or Turnstile);
   * 429 over THROTTLE_CONTACT_LIMIT per client per minute.
   */
  @Post()
  @ThrottledBy('contact')
  @ApiCreatedResponse({ type: MessageReplyDto })
  @ApiOperation({ summary: "Leave your details from the landing page's Learn More form" })
  capture(@Body() body: LeadDto, @Ip() ip: string | undefined): Promise<MessageReplyDto> {
    return this.leads.capture(body.toInput(), body.captcha, ip ?? null);
  }
}
