import { describeError } from "@symbolon/core";
import { useEffect, useRef, useState } from "react";
import { shortenAddress } from "./shortenAddress";

/** What mounting the wallet page's export view returns (core's `exportWallet`). */
export interface ExportHandle {
  close(): void;
  /** Rejects when the wallet page could not take the export request (frame, login). */
  ready?: Promise<void>;
}

/** Props of {@link ExportScreen}. */
export interface ExportScreenProps {
  address: string;
  /** Id for the title, so the dialog is labelled by it. */
  titleId: string;
  /** Mounts the visible wallet-origin iframe into `container`: `exportWallet(client, {address, container})`. */
  mount: (container: HTMLElement) => ExportHandle;
  onDone: () => void;
}

/**
 * Key export: the wallet page (its own origin) shows the key inside this screen; the host page
 * only provides the box it sits in and never sees the key.
 */
export function ExportScreen({ address, titleId, mount, onDone }: ExportScreenProps) {
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const mountRef = useRef(mount);
  mountRef.current = mount;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let handle: ExportHandle | null = null;
    let mounted = true;
    try {
      handle = mountRef.current(element);
      handle.ready?.catch((failure: unknown) => {
        if (mounted) setError(describeError(failure));
      });
    } catch (failure) {
      setError(describeError(failure));
    }
    return () => {
      mounted = false;
      handle?.close();
    };
  }, []);

  return (
    <>
      <h2 id={titleId} className="symbolon-title">
        Export wallet
      </h2>
      <p className="symbolon-subtitle">
        The key of <span title={address}>{shortenAddress(address)}</span> is shown by the wallet page below,
        never by this app.
      </p>
      <div ref={container} className="symbolon-export" />
      {error && (
        <p role="alert" className="symbolon-alert">
          {error}
        </p>
      )}
      <div className="symbolon-actions">
        <button type="button" className="symbolon-button" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}
