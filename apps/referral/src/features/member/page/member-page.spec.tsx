import { MEMBER_PAGE_IDS as IDS } from '@grove/contracts';

const LINK = 'https://grove.example.com/referral/Xy7pQ2';
const TEXT = `Train with me at Ceol Fitness: ${LINK}?via=share`;

/** The member page's share row as the API renders it: Share hidden, the channel links always there. */
function renderSharing(): void {
  document.body.innerHTML = `
    <main id="${IDS.main}">
      <p id="${IDS.url}" data-url="${LINK}?via=copy">${LINK}</p>
      <button id="${IDS.copy}" type="button">Copy link</button>
      <button id="${IDS.share}" type="button" hidden data-title="Ceol Fitness" data-text="${TEXT}">Share</button>
      <a href="https://wa.me/?text=${encodeURIComponent(TEXT)}">WhatsApp</a>
    </main>`;
}

/** Runs the page's script once, as the page inlines it. */
async function runScript(): Promise<void> {
  await jest.isolateModulesAsync(async () => {
    await import('./member-page');
  });
}

/**
 * The member page's Share button (issue 33 item 3, docs/product.md#share-message): the phone's
 * own share sheet (Web Share API) where the browser has it, the WhatsApp, SMS and email links
 * otherwise.
 */
describe("the member page's share sheet", () => {
  const share = jest.fn<Promise<void>, [ShareData]>(() => Promise.resolve());
  afterEach(() => {
    delete (navigator as { share?: unknown }).share;
    share.mockClear();
  });

  it("shows Share where the browser can share, and opens the share sheet with the owner's message", async () => {
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    renderSharing();
    await runScript();
    const button = document.getElementById(IDS.share) as HTMLButtonElement;
    expect(button.hidden).toBe(false);
    button.click();
    expect(share).toHaveBeenCalledWith({ title: 'Ceol Fitness', text: TEXT });
  });

  it('falls back to the channel links where the browser cannot share: Share stays hidden', async () => {
    renderSharing();
    await runScript();
    expect((document.getElementById(IDS.share) as HTMLButtonElement).hidden).toBe(true);
    const whatsapp = document.querySelector('a') as HTMLAnchorElement;
    expect(whatsapp.href.startsWith('https://wa.me/?text=')).toBe(true);
  });
});
