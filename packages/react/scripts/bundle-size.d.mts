/** One output chunk of the measured bundle. */
export interface BundleChunk {
  file: string;
  entry: boolean;
  initial: boolean;
  bytes: number;
  gzipBytes: number;
}

/** Gzip sizes of the host bundle. */
export interface BundleSize {
  initialGzipBytes: number;
  totalGzipBytes: number;
  chunks: BundleChunk[];
}

/** Builds the host entry with esbuild and measures it. */
export function measureBundle(): Promise<BundleSize>;

/** Budget of the initial bundle, gzip bytes (35 KiB). */
export const INITIAL_BUDGET_GZIP_BYTES: number;

/** The command line's report: initial, every lazy chunk and total, gzip. */
export function formatReport(size: BundleSize): string;
