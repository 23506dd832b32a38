import type { Client } from "../client/createClient.ts";
import { internals } from "../client/internals.ts";
import { walletConnectProjectId } from "./projectId.ts";
import { runtimeOf } from "./runtime.ts";
import type { WalletOption } from "./types.ts";

/** The public wallet directory host (WalletConnect's explorer); `walletExplorerUrl` overrides it. */
export const DEFAULT_WALLET_EXPLORER_URL = "https://explorer-api.walletconnect.com";

/** Wallets shown first, in this order (spec §7). */
const FIRST = ["rainbow", "metamask"];

/** One listing of `GET /v3/wallets` (the fields the client reads). */
interface Listing {
  id: string;
  name: string;
  slug?: string;
  image_url?: { sm?: string; md?: string; lg?: string };
  mobile?: { native?: string | null; universal?: string | null };
  desktop?: { native?: string | null; universal?: string | null };
  homepage?: string | null;
}

/**
 * Spec §7: `GET {explorer host}/v3/wallets?projectId=…`, each listing an option opened through
 * WalletConnect (id `wc:<listing id>`, walletClientType from the slug). Failure (or no project id) is
 * logged and gives `[]`. Rainbow and MetaMask come first.
 */
export async function fetchWalletDirectory(client: Client): Promise<WalletOption[]> {
  const projectId = walletConnectProjectId(client);
  if (!projectId) {
    console.warn("Symbolon: no WalletConnect project id; the wallet directory is empty.");
    return [];
  }
  const host = (client.options.walletExplorerUrl ?? DEFAULT_WALLET_EXPLORER_URL).replace(/\/+$/, "");
  try {
    const response = await internals(client).fetch()(
      `${host}/v3/wallets?projectId=${encodeURIComponent(projectId)}`,
    );
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as { listings?: Record<string, Listing> | Listing[] };
    const listings = Array.isArray(body.listings) ? body.listings : Object.values(body.listings ?? {});
    const options = listings
      .filter((l) => typeof l?.id === "string" && typeof l.name === "string")
      .map(toOption);
    const rank = (o: WalletOption) => {
      const i = FIRST.indexOf(o.walletClientType);
      return i === -1 ? FIRST.length : i;
    };
    const sorted = options
      .map((option, index) => ({ option, index }))
      .sort((a, b) => rank(a.option) - rank(b.option) || a.index - b.index)
      .map(({ option }) => option);
    const directory = runtimeOf(client).directory;
    directory.clear();
    for (const option of sorted) directory.set(option.id, option);
    return sorted;
  } catch (e) {
    console.warn("Symbolon: the wallet directory could not be read", e);
    return [];
  }
}

function toOption(listing: Listing): WalletOption {
  const slug = (listing.slug ?? listing.name).toLowerCase();
  return {
    id: `wc:${listing.id}`,
    name: listing.name,
    icon: listing.image_url?.md ?? listing.image_url?.sm ?? listing.image_url?.lg ?? null,
    chainType: "ethereum",
    connectorType: "wallet_connect",
    walletClientType: slug.replace(/[^a-z0-9]+/g, "_"),
    installed: false,
    links: {
      mobile: listing.mobile?.universal || listing.mobile?.native || null,
      desktop: listing.desktop?.universal || listing.desktop?.native || null,
      homepage: listing.homepage ?? null,
    },
  };
}
