// A stand-in for a host app's own auth server, so custom auth (sign-in with the host's JWT) runs on this machine:
// it signs users in by name (no password: it is a local stand-in) and issues short-lived ES256 JWTs, publishing its
// key as a JWKS the Symbolon server fetches. The app's settings point `custom_auth` at it. Dev shows its page.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { readBody } from "./readBody.mjs";

/** Audience the stack's app expects in host tokens. */
export const HOST_AUTH_AUDIENCE = "symbolon-demo";
/** Seconds a host token lives. */
const TOKEN_TTL_S = 600;
const MAX_BODY = 4 * 1024;

/**
 * Starts the host-auth stand-in.
 * @param {{ port?: number, host?: string }} [options]
 * @returns {Promise<{ url: string, issuer: string, jwksUrl: string, audience: string,
 *   mintToken: (sub: string, claims?: object) => Promise<string>, stop: () => Promise<void> }>}
 */
export async function startHostAuth({ port = 0, host = "127.0.0.1" } = {}) {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  let issuer = "";

  const mintToken = (sub, claims = {}) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "ES256", kid })
      .setSubject(sub)
      .setIssuer(issuer)
      .setAudience(HOST_AUTH_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_S}s`)
      .sign(privateKey);

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://host-auth");
    // Host pages on other origins fetch tokens from the browser; nothing here is a credential of the caller.
    const headers = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "content-type",
      "cache-control": "no-store",
    };
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { ...headers, "content-type": type });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    if (req.method === "OPTIONS") return send(204, "", "text/plain");
    if (url.pathname === "/.well-known/jwks.json" && req.method === "GET") return send(200, { keys: [jwk] });
    if (url.pathname === "/token" && req.method === "POST") {
      let sub;
      try {
        sub = String(JSON.parse(await readBody(req, MAX_BODY)).sub ?? "").trim();
      } catch {
        return send(400, { error: 'Send JSON {"sub": "<user id>"}' });
      }
      if (!sub || sub.length > 128) return send(400, { error: "sub must be 1 to 128 characters" });
      return send(200, { token: await mintToken(sub), expires_in: TOKEN_TTL_S });
    }
    if (url.pathname === "/" && req.method === "GET")
      return send(200, page(issuer), "text/html; charset=utf-8");
    return send(404, { error: "Not found" });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  issuer = `http://${host}:${address.port}`;
  return {
    url: issuer,
    issuer,
    jwksUrl: `${issuer}/.well-known/jwks.json`,
    audience: HOST_AUTH_AUDIENCE,
    mintToken,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function page(issuer) {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Host auth (local stand-in)</title>
<style>body{font:16px system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}
textarea{width:100%;height:8rem}</style>
<h1>Host auth — local stand-in</h1>
<p>Plays a host app's own login server for custom auth. It issues ES256 JWTs (issuer <code>${issuer}</code>,
audience <code>${HOST_AUTH_AUDIENCE}</code>, 10 minutes) and publishes its key at
<a href="/.well-known/jwks.json">/.well-known/jwks.json</a>, which the Symbolon server checks tokens against.</p>
<form id="f"><label>Host user id <input id="sub" value="host-user-1" required maxlength="128"></label>
<button>Issue token</button></form><p><label>Token<br><textarea id="t" readonly></textarea></label></p>
<script>f.onsubmit=async(e)=>{e.preventDefault();const r=await fetch('/token',{method:'POST',
headers:{'content-type':'application/json'},body:JSON.stringify({sub:sub.value})});t.value=(await r.json()).token??''}</script>`;
}
