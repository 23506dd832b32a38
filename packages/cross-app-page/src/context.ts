// What the server vouches for, written into <meta name="symbolon-cross-app" content="{json}">.

/** The meta tag's name (crates/server/src/provider_app/page.rs `CONTEXT_META`). */
export const CONTEXT_META = "symbolon-cross-app";

/** The consent page: the server already checked this request. */
export interface AuthorizeContext {
  mode: "authorize";
  api_url: string;
  provider_app_id: string;
  provider_app_name: string;
  client_app_id: string;
  client_app_name: string;
  /** The requesting app's icon (https), when the server sends one; a letter tile otherwise. */
  client_app_icon_url?: string | null;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  code_challenge_method: string;
}

/** The signing page: the token and request come from its own address. */
export interface TransactContext {
  mode: "transact";
  api_url: string;
}

export type PageContext = AuthorizeContext | TransactContext;

/** The page's context, or null when the meta tag is missing or unreadable. */
export function readContext(doc: Pick<Document, "querySelector">): PageContext | null {
  const content = doc.querySelector(`meta[name="${CONTEXT_META}"]`)?.getAttribute("content");
  if (!content) return null;
  try {
    const context = JSON.parse(content) as PageContext;
    return context.mode === "authorize" || context.mode === "transact" ? context : null;
  } catch {
    return null;
  }
}
