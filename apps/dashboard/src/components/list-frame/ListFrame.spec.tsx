import { fireEvent, render, screen } from '@testing-library/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '@grove/contracts';
import { ListFrame } from './ListFrame';

/** A loaded query of one page of 25 names. */
const loaded = (page: Partial<Page<string>>): UseQueryResult<Page<string>, Error> =>
  ({
    isPending: false,
    isError: false,
    data: { items: ['Ann Lee'], total: 0, page: 1, pageSize: 25, ...page },
    refetch: jest.fn(),
  }) as unknown as UseQueryResult<Page<string>, Error>;

const frame = (page: Partial<Page<string>>, onPageChange = jest.fn()) =>
  render(
    <ListFrame
      query={loaded(page)}
      loadingLabel="Loading trees"
      emptyMessage="No trees"
      noun="trees"
      onPageChange={onPageChange}
    >
      {(data) => <p>{data.items.join(', ')}</p>}
    </ListFrame>,
  );

describe('ListFrame pagination (Branches table)', () => {
  it('says "500+" and keeps Next on when a search counted only its first 500 matches', () => {
    const onPageChange = jest.fn();
    frame({ total: 500, totalCapped: true, page: 20 }, onPageChange);
    expect(screen.getByText('476–500 of 500+ trees')).toBeTruthy();
    expect(screen.getByText('Page 20 of 20+')).toBeTruthy();
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    expect(next.disabled).toBe(false);
    fireEvent.click(next);
    expect(onPageChange).toHaveBeenCalledWith(21);
  });

  it('shows an exact total as it is, with Next off on the last page', () => {
    frame({ total: 312, page: 13 });
    expect(screen.getByText('301–312 of 312 trees')).toBeTruthy();
    expect(screen.getByText('Page 13 of 13')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
