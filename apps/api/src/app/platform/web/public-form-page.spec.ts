import { NotFoundException } from '@nestjs/common';
import { Transform } from 'class-transformer';
import type { Response } from 'express';
import { answerPublicFormPost, type PublicFormPage } from './public-form-page';

class GreetingDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  name!: string;
  website?: string;
}

const validate = (dto: GreetingDto): { name?: string } =>
  dto.name ? {} : { name: 'Not a valid name' };

function fakeResponse(): Response & { statusCode: number } {
  const response = { statusCode: 200 } as Response & { statusCode: number };
  response.status = (code: number) => {
    response.statusCode = code;
    return response;
  };
  return response;
}

function page(
  submitted: GreetingDto[],
  find: () => Promise<string> = async () => 'Siobhán’s Gym',
): PublicFormPage<GreetingDto, string, { name?: string }> {
  return {
    dto: GreetingDto,
    fields: ['name', 'website'],
    validate,
    find,
    submit: async (dto) => void submitted.push(dto),
    render: (reply) =>
      reply.kind === 'sent'
        ? `sent to ${reply.found}`
        : `refused at ${reply.found}: ${reply.errors.name} (name “${reply.dto.name}”)`,
  };
}

describe('answerPublicFormPost', () => {
  it('writes a valid send through the DTO (trimmed, fields as text) and answers the success page', async () => {
    const submitted: GreetingDto[] = [];
    const response = fakeResponse();
    const html = await answerPublicFormPost(
      response,
      { name: '  Zoë D’Arcy-Nguyễn ', website: ['a', 'b'], extra: 'dropped' },
      page(submitted),
    );
    expect(html).toBe('sent to Siobhán’s Gym');
    expect(response.statusCode).toBe(200);
    expect(submitted).toEqual([{ name: 'Zoë D’Arcy-Nguyễn', website: '' }]);
    expect(submitted[0]).toBeInstanceOf(GreetingDto);
  });

  it('answers 400 with the typed values and the messages and writes nothing; no body is empty fields', async () => {
    const submitted: GreetingDto[] = [];
    const response = fakeResponse();
    const html = await answerPublicFormPost(response, undefined, page(submitted));
    expect(html).toBe('refused at Siobhán’s Gym: Not a valid name (name “”)');
    expect(response.statusCode).toBe(400);
    expect(submitted).toEqual([]);
  });

  it('reads what the page is of first: its failure wins over the typed fields', async () => {
    const submitted: GreetingDto[] = [];
    const missing = async (): Promise<string> => {
      throw new NotFoundException();
    };
    await expect(
      answerPublicFormPost(fakeResponse(), { name: '' }, page(submitted, missing)),
    ).rejects.toBeInstanceOf(NotFoundException);
    expect(submitted).toEqual([]);
  });
});
