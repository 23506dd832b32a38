/** The fid a Sign In With Farcaster message is for: its `farcaster://fid/<fid>` resource. */
export function fidOfMessage(message: string): number | null {
  const match = /farcaster:\/\/fid\/(\d+)/.exec(message);
  if (!match?.[1]) return null;
  const fid = Number(match[1]);
  return Number.isSafeInteger(fid) ? fid : null;
}
