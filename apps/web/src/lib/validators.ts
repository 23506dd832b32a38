/** What a validator decided about one raw variable. */
export type Check<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Parses one raw environment value (undefined when unset or empty). */
export type Validator<T> = (raw: string | undefined) => Check<T>;

interface Options<T> {
  /** Used when the variable is unset or empty. */
  default?: T;
}

function withDefault<T>(options: Options<T>, parse: (raw: string) => Check<T>): Validator<T> {
  return (raw) => {
    if (raw === undefined) {
      return options.default === undefined
        ? { ok: false, reason: "is required" }
        : { ok: true, value: options.default };
    }
    return parse(raw);
  };
}

/** Any non-empty string. */
export function string(options: Options<string> = {}): Validator<string> {
  return withDefault(options, (raw) => ({ ok: true, value: raw }));
}

/** An absolute http(s) URL (`protocols` widens that, e.g. to a WebSocket's ws: and wss:). */
export function url(options: Options<string> & { protocols?: readonly string[] } = {}): Validator<string> {
  const protocols = options.protocols ?? ["http:", "https:"];
  return withDefault(options, (raw) => {
    try {
      if (protocols.includes(new URL(raw).protocol)) return { ok: true, value: raw };
    } catch {
      // fall through to the refusal below
    }
    return { ok: false, reason: `must be a valid URL (got "${raw}")` };
  });
}

/** Makes a validator accept an unset variable as `undefined`. */
export function optional<T>(validator: Validator<T>): Validator<T | undefined> {
  return (raw) => (raw === undefined ? { ok: true, value: undefined } : validator(raw));
}

/** "true" or "false" (any letter case). */
export function boolean(options: Options<boolean> = {}): Validator<boolean> {
  return withDefault(options, (raw) => {
    const lower = raw.toLowerCase();
    if (lower === "true" || lower === "false") return { ok: true, value: lower === "true" };
    return { ok: false, reason: `must be "true" or "false" (got "${raw}")` };
  });
}
