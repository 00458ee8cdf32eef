import { act, renderHook } from '@testing-library/react';
import { ApiError } from '@grove/web-data-access';
import { useContractForm } from './use-contract-form';

type Issue = { summary: string; description: string };
const validate = (values: Issue): Partial<Record<keyof Issue, string>> =>
  values.summary.trim() ? {} : { summary: 'Summary is required' };

const setUp = (onSubmit: (values: Issue) => Promise<unknown>, onError = jest.fn()) => {
  const { result } = renderHook(() =>
    useContractForm(validate, {
      defaultValues: { summary: '', description: '' },
      trim: ['summary'],
      fields: ['summary', 'description'],
      onSubmit,
      onError,
    }),
  );
  // Register both fields as a form would, so validation and errors apply to them.
  act(() => {
    result.current.field('summary');
    result.current.field('description');
  });
  return { result, onError };
};

describe('useContractForm', () => {
  it('sends the trimmed fields and leaves the others as typed', async () => {
    const onSubmit = jest.fn().mockResolvedValue(undefined);
    const { result } = setUp(onSubmit);
    act(() => {
      result.current.setValue('summary', '  Broken QR  ');
      result.current.setValue('description', '  as typed ');
    });
    await act(() => result.current.submit());
    expect(onSubmit).toHaveBeenCalledWith({ summary: 'Broken QR', description: '  as typed ' });
  });

  it('does not send when the contract refuses a field, and shows its message', async () => {
    const onSubmit = jest.fn();
    const { result } = setUp(onSubmit);
    await act(() => result.current.submit());
    expect(onSubmit).not.toHaveBeenCalled();
    expect(result.current.field('summary').error).toBe('Summary is required');
  });

  it("puts the server's per-field messages on the listed fields and hands the error on", async () => {
    const refusal = new ApiError(400, 'Check the form', { description: 'Too long' });
    const { result, onError } = setUp(() => Promise.reject(refusal));
    act(() => result.current.setValue('summary', 'Broken QR'));
    await act(() => result.current.submit());
    expect(result.current.field('description').error).toBe('Too long');
    expect(onError).toHaveBeenCalledWith(refusal);
  });

  it("puts a server field's message on the form field it is named for (`serverNames`)", async () => {
    const refusal = new ApiError(400, 'Not a valid amount', { priceCents: 'Not a valid amount' });
    const { result } = renderHook(() =>
      useContractForm<{ price: string }>(() => ({}), {
        defaultValues: { price: '' },
        fields: ['price'],
        serverNames: { price: 'priceCents' },
        onSubmit: () => Promise.reject(refusal),
      }),
    );
    act(() => {
      result.current.field('price');
    });
    await act(() => result.current.submit());
    expect(result.current.field('price').error).toBe('Not a valid amount');
  });

  it('gives the one message of a whole-form validator to onInvalid and sends nothing', async () => {
    const onSubmit = jest.fn();
    const onInvalid = jest.fn();
    const { result } = renderHook(() =>
      useContractForm<Issue>((values) => (values.summary ? null : 'Please fill in all fields'), {
        defaultValues: { summary: '', description: '' },
        trim: ['summary'],
        onSubmit,
        onInvalid,
      }),
    );
    act(() => {
      result.current.field('summary');
    });
    await act(() => result.current.submit());
    expect(onInvalid).toHaveBeenCalledWith('Please fill in all fields');
    expect(onSubmit).not.toHaveBeenCalled();
    act(() => result.current.setValue('summary', '  Broken QR '));
    await act(() => result.current.submit());
    expect(onSubmit).toHaveBeenCalledWith({ summary: 'Broken QR', description: '' });
  });
});
