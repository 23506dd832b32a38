/** Brand colours of the built-in providers (the mark's background). */
const COLORS: Record<string, string> = {
  google: "#4285F4",
  twitter: "#1D9BF0",
  twitch: "#9146FF",
  discord: "#5865F2",
  github: "#24292F",
  spotify: "#1DB954",
  instagram: "#E1306C",
  tiktok: "#010101",
  line: "#06C755",
  linkedin: "#0A66C2",
  apple: "#000000",
};

/**
 * A provider's small mark: its initial on its brand colour (a few bytes of inline SVG instead of
 * each brand's artwork), or the operator's icon for a custom provider. Decorative: the button's
 * text names the provider.
 */
export function ProviderLogo({
  provider,
  name,
  iconUrl,
}: {
  provider: string;
  name: string;
  iconUrl?: string | null;
}) {
  if (iconUrl) return <img className="symbolon-provider-logo" src={iconUrl} alt="" width={20} height={20} />;
  return (
    <svg className="symbolon-provider-logo" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <rect width="20" height="20" rx="5" fill={COLORS[provider] ?? "#5d6470"} />
      <text
        x="10"
        y="14.5"
        textAnchor="middle"
        fontSize="12"
        fontWeight="700"
        fill="#fff"
        fontFamily="system-ui,sans-serif"
      >
        {name.charAt(0).toUpperCase()}
      </text>
    </svg>
  );
}
