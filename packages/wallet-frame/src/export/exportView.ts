// The visible export page (markup in index.html): shows the key only after the user asks.

/** What the export handler drives. */
export interface ExportView {
  /** The wallet at `address` is unlocked: let the user reveal the key, read from `readKey` on demand. */
  enableReveal(readKey: () => string, address: string): void;
  showError(message: string): void;
}

export interface ExportViewOptions {
  /**
   * The published client's layout (`?v=1`): its own dialog shows the title, warning and address
   * around a 44 px tall frame, so the page is one button that copies the key.
   */
  compact?: boolean;
}

function element<T extends HTMLElement>(doc: Document, id: string): T {
  const found = doc.getElementById(id);
  if (!found) throw new Error(`wallet frame: #${id} is missing from index.html`);
  return found as T;
}

/** Binds the page's export markup and makes it visible. */
export function createExportView(doc: Document, { compact = false }: ExportViewOptions = {}): ExportView {
  const page = element<HTMLElement>(doc, "export");
  const status = element<HTMLElement>(doc, "export-status");
  const reveal = element<HTMLButtonElement>(doc, "export-reveal");
  const keyBox = element<HTMLElement>(doc, "export-key");
  const keyField = element<HTMLTextAreaElement>(doc, "export-key-field");
  const copy = element<HTMLButtonElement>(doc, "export-copy");
  const addressField = element<HTMLElement>(doc, "export-address");
  page.classList.toggle("export-compact", compact);
  if (compact) reveal.textContent = "Copy private key";
  page.hidden = false;
  let readKey: (() => string) | null = null;

  reveal.addEventListener("click", () => {
    if (!readKey) return;
    if (compact) {
      copyKey(readKey);
      return;
    }
    try {
      keyField.value = readKey();
    } catch {
      status.textContent = "The key could not be read. Close this window and try again.";
      return;
    }
    keyBox.hidden = false;
    // As tall as the wrapped key, at whatever width the page has: no character hides.
    keyField.style.height = "auto";
    const borders = keyField.offsetHeight - keyField.clientHeight;
    keyField.style.height = `${keyField.scrollHeight + borders}px`;
    // Its job is done: the room goes to the key.
    reveal.hidden = true;
    status.textContent = "Your private key is shown below.";
    keyField.focus();
    keyField.select();
  });

  /** Compact: the key goes straight to the clipboard, never onto the page. */
  function copyKey(read: () => string): void {
    let key: string;
    try {
      key = read();
    } catch {
      status.textContent = "The key could not be read. Close this window and try again.";
      return;
    }
    navigator.clipboard.writeText(key).then(
      () => {
        reveal.textContent = "Copied";
        status.textContent = "Your private key was copied to the clipboard.";
      },
      () => {
        reveal.textContent = "Copying failed";
        status.textContent = "Copying failed: the browser did not allow the clipboard.";
      },
    );
  }

  copy.addEventListener("click", () => {
    navigator.clipboard.writeText(keyField.value).then(
      () => {
        status.textContent = "Copied to the clipboard.";
      },
      () => {
        status.textContent = "Copying failed: select the key and copy it yourself.";
        keyField.select();
      },
    );
  });

  return {
    enableReveal(read, address) {
      readKey = read;
      addressField.textContent = address;
      if (compact) {
        reveal.textContent = "Copy private key";
        reveal.removeAttribute("title");
      }
      reveal.disabled = false;
      status.textContent = "Ready. Make sure nobody can see your screen.";
    },
    showError(message) {
      status.textContent = message;
      if (compact) {
        reveal.textContent = "Export unavailable";
        reveal.title = message;
      }
    },
  };
}
