// Data the benchmarks make on a fresh Grove through its public API (no database access needed).

/**
 * Signs an owner up (`POST /api/auth/signup`) and returns their session as a `cookie` header
 * value, for calls made as that owner.
 * @param {string} base Grove's origin, e.g. `http://localhost:3000`
 * @param {object} [owner] fields over the default owner (businessName, email, …)
 * @returns {Promise<string>}
 */
export async function signUpOwner(base, owner = {}) {
  const signup = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      businessName: 'Bench Gym',
      firstName: 'Bench',
      lastName: 'Owner',
      email: 'bench@grove.local',
      phoneNumber: '0412 345 678',
      website: 'bench.example.com',
      password: 'bench password',
      ...owner,
    }),
  });
  if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  return signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * Adds a member as the owner of `cookie` and gives them a referral link.
 * @returns {Promise<{ memberId: string, code: string }>}
 */
export async function memberWithLink(base, cookie, member = {}) {
  const headers = { cookie, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/members`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      memberName: 'Referring Member',
      memberEmail: 'referrer@bench.example.com',
      membershipPrice: '99',
      discount: '10',
      ...member,
    }),
  });
  if (!created.ok) throw new Error(`member failed: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const link = await fetch(`${base}/api/members/${id}/referral-link`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (!link.ok) throw new Error(`link failed: ${link.status} ${await link.text()}`);
  return { memberId: id, code: (await link.json()).code };
}
