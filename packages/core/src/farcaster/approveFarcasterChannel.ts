import type { Client } from "../client/createClient.ts";
import type {
  FarcasterInitRequest,
  FarcasterInitResponse,
  FarcasterStatusResponse,
} from "../generated/protocol.ts";
import { HEADER_FARCASTER_CHANNEL_TOKEN } from "../generated/protocol.ts";
import { apiRequest } from "../http/apiRequest.ts";
import { FarcasterError } from "./FarcasterError.ts";
import { type FarcasterPollOptions, pollFarcaster } from "./pollFarcaster.ts";

/** A relay channel to show: `url` as a QR code (desktop) or a link (mobile). */
export interface FarcasterChannel {
  url: string;
  channelToken: string;
}

/** Options of the relay flows (login and link). */
export interface FarcasterChannelOptions extends FarcasterPollOptions {
  /** Called once the channel is open: show its `url`. */
  onChannel?: (channel: FarcasterChannel) => void;
  /** Captcha token, when the app uses a captcha. */
  captchaToken?: string;
}

/** What the Farcaster app signed on the channel. */
export interface FarcasterApproval {
  channel_token: string;
  message: string;
  signature: string;
  fid: number;
}

/**
 * Sign In With Farcaster through the relay (spec §4, §7): `POST /farcaster/init` opens a channel,
 * `GET /farcaster/status` (header `farcaster-channel-token`) is polled every 2 s until the user
 * approved it in the Farcaster app; 300 s without an answer fail with 'Connect failed'.
 */
export async function approveFarcasterChannel(
  client: Client,
  options: FarcasterChannelOptions = {},
): Promise<FarcasterApproval> {
  const body: FarcasterInitRequest = options.captchaToken ? { token: options.captchaToken } : {};
  const channel = await apiRequest<FarcasterInitResponse>(client, "POST", "/farcaster/init", { body });
  options.onChannel?.({ url: channel.connect_uri, channelToken: channel.channel_token });
  const headers = { [HEADER_FARCASTER_CHANNEL_TOKEN]: channel.channel_token };
  const done = await pollFarcaster(async () => {
    const status = await apiRequest<FarcasterStatusResponse>(client, "GET", "/farcaster/status", { headers });
    return status.state === "completed" ? status : null;
  }, options);
  const { message, signature, fid } = done;
  if (!message || !signature || fid === undefined)
    throw new FarcasterError(
      "farcaster_connect_failed",
      "The Farcaster relay answered without a signed message.",
    );
  return { channel_token: channel.channel_token, message, signature, fid };
}
