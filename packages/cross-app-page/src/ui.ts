// A few DOM helpers: text only (never HTML), so nothing a requester sends can become markup.

type Child = Node | string;

/** `<tag attrs>children</tag>`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A button that runs `onClick` once per press, disabled while it runs; `primary` is the accent one. */
export function button(
  label: string,
  onClick: () => Promise<void> | void,
  kind: "primary" | "secondary" = "primary",
): HTMLButtonElement {
  const node = el("button", { type: "button", class: kind }, label);
  node.addEventListener("click", async () => {
    node.disabled = true;
    try {
      await onClick();
    } finally {
      node.disabled = false;
    }
  });
  return node;
}

/**
 * Replaces the page's content and moves focus to where a keyboard or screen-reader user starts:
 * the first field, else the title.
 */
export function show(...children: Child[]): void {
  const root = document.getElementById("root");
  if (!root) return;
  root.replaceChildren(...children);
  const heading = root.querySelector("h1");
  heading?.setAttribute("tabindex", "-1");
  const start = root.querySelector("input") ?? heading;
  start?.focus();
}

/** A visible error line. */
export function errorLine(message: string): HTMLParagraphElement {
  return el("p", { class: "error", role: "alert" }, message);
}

/** An app's icon, or its first letter on a tile when it has none. Decorative: its name is beside it. */
export function appTile(name: string, iconUrl?: string | null): HTMLElement {
  if (iconUrl && /^https:\/\//.test(iconUrl)) {
    return el("img", { class: "tile", src: iconUrl, alt: "", width: "48", height: "48" });
  }
  const letter = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  return el("span", { class: "tile", "aria-hidden": "true" }, letter);
}

/** The page's top: the app's tile, the title (the page's one `<h1>`) and a subtitle. */
export function header(
  app: { name: string; iconUrl?: string | null | undefined },
  title: string,
  subtitle?: string,
): HTMLElement {
  const head = el("header", { class: "head" }, appTile(app.name, app.iconUrl), el("h1", {}, title));
  if (subtitle !== undefined) head.append(el("p", { class: "subtitle" }, subtitle));
  return head;
}

/** One labelled row of a `<dl class="rows">`. */
export function row(label: string, ...value: Child[]): HTMLDivElement {
  return el("div", { class: "row" }, el("dt", {}, label), el("dd", {}, ...value));
}

/**
 * A row whose value is an address: in full on its own line, monospace, wrapping anywhere (never cut:
 * it is what the user checks).
 */
export function addressRow(label: string, value: string): HTMLDivElement {
  const node = row(label, el("span", { class: "address" }, value));
  node.classList.add("wide");
  return node;
}
