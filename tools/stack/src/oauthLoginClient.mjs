// Signs in at either OAuth stand-in the way a browser would, over plain HTTP: follows the authorization URL to the
// sign-in page, posts its form (or Cancel), and follows the provider's redirects until they leave the provider.
// Returns that last address: the app's callback with ?code&state (or ?error=access_denied&state), not loaded.

/**
 * @param {string} authorizeUrl the provider's authorization URL (as the Symbolon server's /oauth/init returns it)
 * @param {{ login?: string, email?: string, name?: string, emailVerified?: boolean, deny?: boolean }} [who]
 * @returns {Promise<URL>} the callback address the provider sends the browser to
 */
export async function signInAt(
  authorizeUrl,
  { login = "alice", email, name, emailVerified, deny = false } = {},
) {
  const provider = new URL(authorizeUrl).origin;
  const jar = new Map();
  const request = async (url, init = {}) => {
    const headers = { ...init.headers };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return res;
  };
  /** Follows redirects while they stay at the provider; returns the page reached or the address that leaves. */
  const follow = async (res, from) => {
    let current = from;
    for (let hops = 0; hops < 10; hops++) {
      if (res.status < 300 || res.status >= 400) return { res, url: current };
      const next = new URL(res.headers.get("location") ?? "", current);
      if (next.origin !== provider) return { leaves: next };
      current = next;
      res = await request(next);
    }
    throw new Error(`too many redirects from ${authorizeUrl}`);
  };

  const page = await follow(await request(authorizeUrl), new URL(authorizeUrl));
  if (page.leaves) return page.leaves;
  const text = await page.res.text();
  if (page.res.status !== 200)
    throw new Error(`sign-in page answered ${page.res.status}: ${text.slice(0, 300)}`);
  const forms = [...text.matchAll(/<form method="post" action="([^"]+)"([^>]*)>/g)];
  const pick = (test) => forms.find((f) => test(f))?.[1]?.replaceAll("&amp;", "&");
  const action = deny
    ? pick((f) => f[2].includes('class="cancel"'))
    : pick((f) => f[2].includes('id="login"'));
  if (!action) throw new Error(`no ${deny ? "cancel" : "login"} form on the sign-in page`);
  const form = new URLSearchParams(deny ? {} : { login });
  if (!deny && email) form.set("email", email);
  if (!deny && name) form.set("name", name);
  if (!deny && emailVerified === false) form.set("email_verified", "false");
  const target = new URL(action, page.url);
  const posted = await request(target, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const done = await follow(posted, target);
  if (done.leaves) return done.leaves;
  throw new Error(
    `sign-in did not redirect back (${done.res.status}): ${(await done.res.text()).slice(0, 300)}`,
  );
}
