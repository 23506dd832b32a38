/** Brand colours for the letter mark of wallets that give no icon. */
const COLORS: Record<string, string> = {
  wallet_connect: "#3B99FC",
  coinbase_wallet: "#0052FF",
  metamask: "#F6851B",
  phantom: "#AB9FF2",
  rainbow: "#174299",
};

/** Whether `src` is an image URL the modal shows: an EIP-6963 `data:image/…` URI or an https (or http) URL. */
export function isShowableIcon(src: string | null | undefined): src is string {
  return typeof src === "string" && /^(data:image\/|https?:\/\/)/i.test(src);
}

/**
 * A wallet's icon: its own image (EIP-6963 `info.icon`, the directory's image), else its initial on a
 * brand colour. `alt` names it when the icon stands alone; list rows pass "" (the row's text names it).
 */
export function WalletIcon({
  icon,
  name,
  walletClientType,
  alt,
  large = false,
}: {
  icon: string | null;
  name: string;
  walletClientType: string;
  alt: string;
  large?: boolean;
}) {
  const className = large ? "symbolon-wallet-icon symbolon-wallet-icon--large" : "symbolon-wallet-icon";
  const size = large ? 64 : 40;
  if (isShowableIcon(icon))
    return <img className={className} src={icon} alt={alt} width={size} height={size} />;
  const mark = (
    <>
      <rect width="40" height="40" rx="10" fill={COLORS[walletClientType] ?? "#5d6470"} />
      <text
        x="20"
        y="27"
        textAnchor="middle"
        fontSize="20"
        fontWeight="700"
        fill="#fff"
        fontFamily="system-ui,sans-serif"
      >
        {name.charAt(0).toUpperCase()}
      </text>
    </>
  );
  return alt ? (
    <svg className={className} viewBox="0 0 40 40" width={size} height={size} role="img" aria-label={alt}>
      <title>{alt}</title>
      {mark}
    </svg>
  ) : (
    <svg className={className} viewBox="0 0 40 40" width={size} height={size} aria-hidden="true">
      {mark}
    </svg>
  );
}
