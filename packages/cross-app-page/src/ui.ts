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

/** A button that runs `onClick` once per press, disabled while it runs. */
export function button(label: string, onClick: () => Promise<void> | void): HTMLButtonElement {
  const node = el("button", { type: "button" }, label);
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

/** Replaces the page's content. */
export function show(...children: Child[]): void {
  const root = document.getElementById("root");
  root?.replaceChildren(...children);
}

/** A visible error line. */
export function errorLine(message: string): HTMLParagraphElement {
  return el("p", { class: "error", role: "alert" }, message);
}
