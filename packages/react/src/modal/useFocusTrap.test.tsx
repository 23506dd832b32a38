import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useRef, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useFocusTrap } from "./useFocusTrap";

function Dialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, onClose);
  return (
    <div ref={ref} role="dialog" aria-label="Test">
      <button type="button" data-autofocus onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/** A page whose "Update email" button is re-created (new key) while the dialog is open. */
function Page({ keepTrigger }: { keepTrigger: boolean }) {
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState(0);
  return (
    <main>
      <h1>Demo</h1>
      <button type="button" onClick={() => setOpen(true)}>
        Other
      </button>
      {keepTrigger && (
        <button key={version} type="button" onClick={() => setOpen(true)}>
          Update email
        </button>
      )}
      {open && (
        <Dialog
          onClose={() => {
            setVersion((v) => v + 1);
            setOpen(false);
          }}
        />
      )}
    </main>
  );
}

afterEach(cleanup);

it("without the trigger (Log in replaced by the account), the page's main heading takes focus", async () => {
  render(<Page keepTrigger />);
  const other = screen.getByRole("button", { name: "Other" });
  other.focus();
  fireEvent.click(other);
  other.remove();
  act(() => screen.getByRole("button", { name: "Close" }).click());
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Demo" })));
});

describe("useFocusTrap: focus after the dialog closes", () => {
  it("returns to the control that opened it, even when the page re-created that control", async () => {
    render(<Page keepTrigger />);
    const trigger = screen.getByRole("button", { name: "Update email" });
    trigger.focus();
    fireEvent.click(trigger);
    expect(document.activeElement?.textContent).toBe("Close");
    act(() => screen.getByRole("button", { name: "Close" }).click());
    const now = screen.getByRole("button", { name: "Update email" });
    expect(now).not.toBe(trigger);
    await waitFor(() => expect(document.activeElement).toBe(now));
  });
});
